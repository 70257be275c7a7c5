import { useEffect, useId, useRef, useState } from 'react';

export interface Segment {
  name: string;
  /** A fill the palette gives (theme.css), with a legend swatch of the same colour. */
  color: string;
  value: number;
}
export interface Bar {
  label: string;
  segments: Segment[];
}

const H = 220;

/** The axis' top: the next 1, 2 or 5 times a power of ten, so its label is a true figure. */
export function niceCeil(n: number): number {
  if (n <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * power >= n) ?? 10) * power;
}

/** The chart's width in CSS pixels, so its text stays the page's size on a phone and on a desk. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.round(entry!.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
const PAD = { top: 16, right: 8, bottom: 28, left: 64 };

/**
 * A small bar chart in SVG (stacked when a bar has several segments). Hand-written rather than a
 * chart library: two charts did not justify the bytes (decision 0057). The figures are in the
 * table beside it too; the chart is an image with a summary for screen readers, and each bar says
 * its figures on hover.
 */
export function BarChart({
  title,
  summary,
  bars,
  format,
}: {
  title: string;
  summary: string;
  bars: Bar[];
  format: (n: number) => string;
}) {
  const id = useId();
  const { ref, width: W } = useWidth();
  const total = (b: Bar) => b.segments.reduce((n, s) => n + Math.max(0, s.value), 0);
  const max = niceCeil(Math.max(...bars.map(total), 0));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, bars.length);
  const barW = Math.max(2, Math.min(40, step * 0.7));
  // At most about ten labels under the axis, whatever the number of days.
  const every = Math.max(1, Math.ceil(bars.length / Math.max(2, Math.floor(plotW / 56))));
  const legend = bars[0]?.segments ?? [];
  return (
    <figure className="flex flex-col gap-2 rounded-xl border border-cream-300 bg-cream-50 p-3">
      <figcaption id={`${id}-t`} className="font-semibold">
        {title}
      </figcaption>
      <div ref={ref}>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          width={W}
          height={H}
          className="block max-w-full"
          role="img"
          aria-labelledby={`${id}-t ${id}-d`}
        >
          <desc id={`${id}-d`}>{summary}</desc>
          <line
            x1={PAD.left}
            x2={W - PAD.right}
            y1={PAD.top + plotH}
            y2={PAD.top + plotH}
            stroke="var(--color-ink-600)"
          />
          <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" fontSize="12" fill="var(--color-ink-700)">
            {format(max)}
          </text>
          <text x={PAD.left - 6} y={PAD.top + plotH} textAnchor="end" fontSize="12" fill="var(--color-ink-700)">
            {format(0)}
          </text>
          {bars.map((bar, i) => {
            const x = PAD.left + i * step + (step - barW) / 2;
            let y = PAD.top + plotH;
            return (
              <g key={bar.label}>
                <title>{`${bar.label}: ${bar.segments.map((s) => `${s.name} ${format(s.value)}`).join(', ')}`}</title>
                {bar.segments.map((s) => {
                  const h = (Math.max(0, s.value) / max) * plotH;
                  y -= h;
                  return <rect key={s.name} x={x} y={y} width={barW} height={h} fill={s.color} />;
                })}
                {/* An outline, so a pale segment (free sessions) still stands out from the card (WCAG 1.4.11). */}
                {total(bar) > 0 && (
                  <rect
                    x={x}
                    y={y}
                    width={barW}
                    height={PAD.top + plotH - y}
                    fill="none"
                    stroke="var(--color-ink-600)"
                    strokeWidth="1"
                  />
                )}
                {i % every === 0 && (
                  <text x={x + barW / 2} y={H - 8} textAnchor="middle" fontSize="12" fill="var(--color-ink-700)">
                    {bar.label}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      {legend.length > 1 && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Legend">
          {legend.map((s) => (
            <li key={s.name} className="flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className="inline-block size-3 rounded-sm border border-ink-600"
                style={{ background: s.color }}
              />
              {s.name}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
