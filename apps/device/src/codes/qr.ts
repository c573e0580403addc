/**
 * Reading a QR code: from a picture with jsQR (loaded only when a picture is chosen), and from the
 * camera with the browser's BarcodeDetector where it has one (docs/decisions/026-device-app-codes.md).
 */

/** The largest side a picture is scaled down to before decoding: a phone photo is far bigger. */
const MAX_SIDE = 1280;

export class UnreadablePicture extends Error {}

/** The text of the first QR code in the picture, or null when there is none. */
export async function decodeQrPicture(file: Blob): Promise<string | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new UnreadablePicture('not an image');
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new UnreadablePicture('no canvas');
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const { data } = context.getImageData(0, 0, width, height);
  const { default: jsQR } = await import('jsqr');
  return jsQR(data, width, height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

/** The part of the Barcode Detection API the app uses (not in TypeScript's DOM library yet). */
type Detector = { detect(source: CanvasImageSource): Promise<Array<{ rawValue: string; format: string }>> };
type DetectorClass = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
};

const detectorClass = () => (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;

/** Whether this browser can read QR codes from the camera (BarcodeDetector with qr_code, a camera API). */
export async function cameraScanAvailable(): Promise<boolean> {
  const Detector = detectorClass();
  if (!Detector || !navigator.mediaDevices?.getUserMedia) return false;
  try {
    return (await Detector.getSupportedFormats()).includes('qr_code');
  } catch {
    return false;
  }
}

/**
 * Shows the camera in `video` and resolves with the first QR code's text; `signal` stops it
 * (resolving null). The camera is released either way.
 */
export async function scanWithCamera(video: HTMLVideoElement, signal: AbortSignal): Promise<string | null> {
  const Detector = detectorClass();
  if (!Detector) throw new Error('no BarcodeDetector');
  const detector = new Detector({ formats: ['qr_code'] });
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment' },
    audio: false,
  });
  try {
    video.srcObject = stream;
    await video.play();
    while (!signal.aborted) {
      const found = await detector.detect(video).catch(() => []);
      const qr = found.find((b) => b.format === 'qr_code');
      if (qr) return qr.rawValue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return null;
  } finally {
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  }
}
