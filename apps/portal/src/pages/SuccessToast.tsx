import { Toast, ToastProvider } from '@gatehouse/ui';

/**
 * The toast shown on the login page after a password change. Loaded on demand, so the toast
 * machinery is not part of the login route's JavaScript. It stays until closed (WCAG 2.2.1: a
 * message that goes by itself is a time limit on reading it), so the page never moves under the
 * reader when it goes: only a press of its Close button removes it.
 */
export function SuccessToast({ title, message }: { title: string; message: string }) {
  return (
    <ToastProvider>
      <Toast title={title} message={message} variant="confirm" timeout={Number.POSITIVE_INFINITY} />
    </ToastProvider>
  );
}
