/**
 * POSTs a JSON body to a delivery webhook (text and voice messages, push notices): the bearer token
 * when set, a timeout, no redirects; any 2xx is delivered. Otherwise it throws the caller's error
 * with `{name} did not answer (...)` or `{name} answered HTTP n`. The body is drained so the
 * connection is released; nothing of the answer is kept.
 */
export async function postToWebhook(
  webhook: { url: string; token: string | undefined; timeoutMs: number; name: string },
  body: unknown,
  failure: new (message: string) => Error,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(webhook.token ? { authorization: `Bearer ${webhook.token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(webhook.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    throw new failure(`${webhook.name} did not answer (${(error as Error).name})`);
  }
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new failure(`${webhook.name} answered HTTP ${response.status}`);
}
