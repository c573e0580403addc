import { Button, Field, fieldDescribedBy, TextInput } from '@gatehouse/ui';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { cameraScanAvailable, decodeQrPicture, scanWithCamera, UnreadablePicture } from '../../codes/qr.ts';
import type { AddResult } from './CodesPage.tsx';
import { tc } from './texts.ts';

export type FieldErrors = { uri?: string; picture?: string; camera?: string };

/** The fields of the add form, in page order: the error summary links to them. */
export const fieldIds = [
  { key: 'uri', id: 'code-uri' },
  { key: 'picture', id: 'code-picture' },
  { key: 'camera', id: 'code-camera' },
] as const;

/**
 * Adding a code: paste its otpauth:// address, choose or take a picture of its QR code (decoded
 * with jsQR), or, where the browser has BarcodeDetector, scan it with the camera. Each way's
 * error stands at its field and in the page's error summary.
 */
export function AddCode({
  add,
  errors,
  report,
}: {
  add: (text: string) => Promise<AddResult>;
  errors: FieldErrors;
  report: (errors: FieldErrors) => void;
}) {
  const [uri, setUri] = useState('');
  const [busy, setBusy] = useState<'uri' | 'picture' | null>(null);
  const picture = useRef<HTMLInputElement>(null);
  const [camera, setCamera] = useState(false);
  const [scanning, setScanning] = useState(false);
  useEffect(() => {
    let live = true;
    void cameraScanAvailable().then((yes) => live && setCamera(yes));
    return () => {
      live = false;
    };
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy('uri');
    const result = await add(uri);
    setBusy(null);
    if (result.ok) {
      setUri('');
      report({});
    } else report({ uri: result.message });
  }

  async function chosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file || busy) return;
    setBusy('picture');
    let message: string | undefined;
    try {
      const text = await decodeQrPicture(file);
      if (text === null) message = tc('codes.pictureNoCode');
      else {
        const result = await add(text);
        if (!result.ok) message = result.message;
      }
    } catch (error) {
      message =
        error instanceof UnreadablePicture ? tc('codes.pictureUnreadable') : tc('codes.pictureNoCode');
    }
    setBusy(null);
    // The same picture may be chosen again after a fix elsewhere.
    if (picture.current) picture.current.value = '';
    report(message ? { picture: message } : {});
  }

  async function scanned(text: string | null | Error) {
    setScanning(false);
    if (text === null) return;
    if (text instanceof Error) {
      report({ camera: tc('codes.cameraFailed') });
      return;
    }
    const result = await add(text);
    report(result.ok ? {} : { camera: result.message });
  }

  return (
    <section className="gh-shell__section" aria-labelledby="add-code-heading">
      <h2 id="add-code-heading">{tc('codes.addHeading')}</h2>
      <p>{tc('codes.addIntro')}</p>
      <form className="codes__form" onSubmit={(event) => void submit(event)} noValidate>
        <TextInput
          id="code-uri"
          label={tc('codes.uriLabel')}
          hint={tc('codes.uriHint')}
          error={errors.uri}
          value={uri}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="none"
          autoCorrect="off"
          onChange={(event) => setUri(event.target.value)}
        />
        <div className="gh-shell__actions">
          <Button type="submit" loading={busy === 'uri'} loadingText={tc('codes.adding')}>
            {tc('codes.addUri')}
          </Button>
        </div>
      </form>
      <Field
        id="code-picture"
        label={tc('codes.pictureLabel')}
        hint={tc('codes.pictureHint')}
        error={errors.picture}
      >
        <input
          ref={picture}
          id="code-picture"
          className="codes__file"
          type="file"
          accept="image/*"
          aria-describedby={fieldDescribedBy({
            id: 'code-picture',
            hint: tc('codes.pictureHint'),
            error: errors.picture,
          })}
          aria-invalid={errors.picture ? true : undefined}
          onChange={(event) => void chosen(event)}
        />
      </Field>
      {busy === 'picture' ? <p role="status">{tc('codes.reading')}</p> : null}
      {camera ? (
        <div className="codes__camera">
          {scanning ? (
            <CameraScan onDone={(text) => void scanned(text)} />
          ) : (
            <Button
              id="code-camera"
              variant="secondary"
              aria-describedby={errors.camera ? 'code-camera-error' : undefined}
              onClick={() => setScanning(true)}
            >
              {tc('codes.cameraStart')}
            </Button>
          )}
          {errors.camera ? <p className="codes__error">{errors.camera}</p> : null}
        </div>
      ) : null}
    </section>
  );
}

/** The camera's picture while BarcodeDetector looks for a QR code; Stop releases the camera. */
function CameraScan({ onDone }: { onDone: (result: string | null | Error) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const stop = useRef<AbortController>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller;
    if (video.current) {
      scanWithCamera(video.current, controller.signal).then(
        (text) => !controller.signal.aborted && done.current(text),
        (error: unknown) =>
          !controller.signal.aborted && done.current(error instanceof Error ? error : new Error('camera')),
      );
    }
    return () => controller.abort();
  }, []);
  return (
    <div className="codes__scan">
      <h3>{tc('codes.cameraHeading')}</h3>
      <video ref={video} className="codes__video" muted playsInline aria-label={tc('codes.cameraHeading')} />
      <Button
        id="code-camera"
        variant="secondary"
        onClick={() => {
          stop.current?.abort();
          done.current(null);
        }}
      >
        {tc('codes.cameraStop')}
      </Button>
    </div>
  );
}
