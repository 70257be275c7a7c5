import { useEffect, useState } from 'react';

/** Quiet zone around the symbol, in modules (the QR standard asks for 4). */
const QUIET = 4;

/** One SVG path for the dark modules: small DOM, crisp at any size. */
async function qrPath(code: string): Promise<{ d: string; size: number }> {
  // Loaded on demand so /create-booking's initial JavaScript stays within its budget.
  const { default: QRCode } = await import('qrcode');
  // One symbol per task: the cards' codes in one go were a long task just as My Bookings showed.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const { modules } = QRCode.create(code, { errorCorrectionLevel: 'M' });
  let d = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++)
      if (modules.get(row, col)) d += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
  }
  return { d, size: modules.size + QUIET * 2 };
}

/**
 * The booking's check-in code as a QR code with the reference beside it, for Santa's team to scan
 * at the set. Black on white whatever the theme, at least 176 px so a phone held up scans it.
 */
export function CheckInQr({ code, reference, size = 176 }: { code: string; reference: string; size?: number }) {
  const [symbol, setSymbol] = useState<{ code: string; d: string; size: number } | null>(null);
  useEffect(() => {
    let live = true;
    void qrPath(code).then((s) => live && setSymbol({ code, ...s }));
    return () => {
      live = false;
    };
  }, [code]);
  const ready = symbol?.code === code ? symbol : null;
  return (
    <figure
      className="flex flex-wrap items-center gap-4 rounded-2xl border border-cream-300 bg-white p-3"
      data-testid="check-in-qr"
      data-code={code}
    >
      <div style={{ width: size, height: size }} className="shrink-0">
        {ready ? (
          <svg
            role="img"
            aria-label={`Check-in QR code for booking ${reference}`}
            viewBox={`0 0 ${ready.size} ${ready.size}`}
            width={size}
            height={size}
            shapeRendering="crispEdges"
          >
            <rect width={ready.size} height={ready.size} fill="#ffffff" />
            <path d={ready.d} fill="#000000" />
          </svg>
        ) : (
          <div className="size-full animate-pulse rounded-lg bg-cream-200" aria-hidden="true" />
        )}
      </div>
      <figcaption className="flex min-w-0 flex-col gap-1">
        <span className="text-sm text-ink-700">Show this at the set to check in</span>
        <span className="font-mono text-2xl font-semibold tracking-wider text-ink-900">{reference}</span>
        <span className="text-sm text-ink-600">No signal? Tell Santa's team your reference.</span>
      </figcaption>
    </figure>
  );
}
