import type { ChartType } from './hash.ts';

/**
 * Small SVG charts. recharts is not installed here, and these two shapes need no library: the
 * points per week of a channel (a sparkline) and the data points over time (bars or a line).
 */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const w = 120;
  const h = 28;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(h - 2 - (v / max) * (h - 4)).toFixed(1)}`).join(' ');
  return (
    <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      <polyline
        points={points}
        fill="none"
        stroke="var(--mantine-color-indigo-6)"
        strokeWidth={2}
        strokeLinejoin="round"
      />
    </svg>
  );
}

export interface SeriesPoint {
  start: string;
  count: number;
}

const short = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Data points over time; each bar or point is one bucket of the series. */
export function TimeChart({ series, type }: { series: readonly SeriesPoint[]; type: Exclude<ChartType, 'none'> }) {
  const w = 800;
  const h = 200;
  const pad = { left: 36, bottom: 24, top: 8, right: 8 };
  const max = Math.max(1, ...series.map((p) => p.count));
  const innerW = w - pad.left - pad.right;
  const innerH = h - pad.top - pad.bottom;
  const slot = innerW / Math.max(1, series.length);
  const y = (v: number) => pad.top + innerH - (v / max) * innerH;
  const x = (i: number) => pad.left + i * slot + slot / 2;
  // A few periods would otherwise make bars as wide as the chart: they stay bars.
  const barW = Math.min(slot * 0.7, 48);
  const labelEvery = Math.max(1, Math.ceil(series.length / 8));
  const total = series.reduce((n, p) => n + p.count, 0);
  return (
    <svg
      viewBox={`0 0 ${w} ${h}`}
      width="100%"
      role="img"
      aria-label={`Data points over time: ${total} in ${series.length} periods`}
    >
      <line
        x1={pad.left}
        x2={w - pad.right}
        y1={pad.top + innerH}
        y2={pad.top + innerH}
        stroke="var(--mantine-color-gray-5)"
      />
      <text x={pad.left - 6} y={pad.top + 10} textAnchor="end" fontSize={11} fill="var(--mantine-color-gray-7)">
        {max}
      </text>
      <text x={pad.left - 6} y={pad.top + innerH} textAnchor="end" fontSize={11} fill="var(--mantine-color-gray-7)">
        0
      </text>
      {type === 'bar' ? (
        series.map((p, i) => (
          <rect
            key={p.start}
            x={x(i) - barW / 2}
            width={barW}
            y={y(p.count)}
            height={pad.top + innerH - y(p.count)}
            fill="var(--mantine-color-indigo-6)"
          >
            <title>{`${short(p.start)}: ${p.count}`}</title>
          </rect>
        ))
      ) : (
        <>
          <polyline
            points={series.map((p, i) => `${x(i)},${y(p.count)}`).join(' ')}
            fill="none"
            stroke="var(--mantine-color-indigo-6)"
            strokeWidth={2}
          />
          {/* A dot per period: a line of one period is a point, and each one says its count. */}
          {series.map((p, i) => (
            <circle key={p.start} cx={x(i)} cy={y(p.count)} r={3.5} fill="var(--mantine-color-indigo-6)">
              <title>{`${short(p.start)}: ${p.count}`}</title>
            </circle>
          ))}
        </>
      )}
      {series.map((p, i) =>
        i % labelEvery === 0 ? (
          <text
            key={`l${p.start}`}
            x={x(i)}
            y={h - 6}
            textAnchor="middle"
            fontSize={11}
            fill="var(--mantine-color-gray-7)"
          >
            {short(p.start)}
          </text>
        ) : null,
      )}
    </svg>
  );
}
