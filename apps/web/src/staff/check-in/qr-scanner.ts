/**
 * Reads QR codes from the camera: the browser's BarcodeDetector where it has one (Chrome on
 * Android, Safari 17+ on some devices), else jsQR, loaded only when the camera is first used so
 * the staff bundle stays small. Returns a stop function.
 */
interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
declare global {
  interface Window {
    BarcodeDetector?: { new (options: { formats: string[] }): Detector; getSupportedFormats(): Promise<string[]> };
  }
}

async function nativeDetector(): Promise<Detector | null> {
  const Native = window.BarcodeDetector;
  if (!Native) return null;
  try {
    return (await Native.getSupportedFormats()).includes('qr_code') ? new Native({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
}

async function jsQrDetector(): Promise<Detector> {
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  return {
    detect(source) {
      const video = source as HTMLVideoElement;
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      if (!canvas.width || !canvas.height) return Promise.resolve([]);
      context.drawImage(video, 0, 0);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const found = jsQR(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' });
      return Promise.resolve(found ? [{ rawValue: found.data }] : []);
    },
  };
}

export async function startScanner(video: HTMLVideoElement, onCode: (code: string) => void): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  video.srcObject = stream;
  await video.play();
  const detector = (await nativeDetector()) ?? (await jsQrDetector());
  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    if (!running) return;
    try {
      const [found] = await detector.detect(video);
      if (found?.rawValue) onCode(found.rawValue);
    } catch {
      // A frame that could not be read; the next one may.
    }
    // About five looks a second: quick for a person, light on a tablet's battery.
    if (running) timer = setTimeout(() => void tick(), 200);
  };
  void tick();
  return () => {
    running = false;
    clearTimeout(timer);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
}
