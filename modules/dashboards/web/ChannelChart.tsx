import { Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactElement, ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChannelChartData } from './api.ts';
import { PALETTE } from './ChartView.tsx';

type Theme = ChannelChartData['themes'][number];

const label = (iso: string, interval: ChannelChartData['interval']) =>
  new Date(iso).toLocaleDateString(
    undefined,
    interval === 'MONTH'
      ? { month: 'short', year: 'numeric', timeZone: 'UTC' }
      : { month: 'short', day: 'numeric', timeZone: 'UTC' },
  );
const OTHER = 'Other data points';
const colorOf = (i: number) => PALETTE[i % PALETTE.length]!;

interface FigureRow {
  key: string | number;
  name: ReactNode;
  cells: ReactNode[];
}

/**
 * A chart drawn for the eye (an image named by `label`) and the same figures as a table for screen
 * readers: one column heading a measure, one row a theme or a period.
 */
function ChartWithFigures({
  title,
  label,
  height,
  chart,
  columns,
  rows,
}: {
  title: string;
  label: string;
  height: number;
  chart: ReactElement;
  columns: ReactNode[];
  rows: FigureRow[];
}) {
  return (
    <>
      <div role="img" aria-label={label} style={{ width: '100%', height }}>
        <ResponsiveContainer width="100%" height="100%">
          {chart}
        </ResponsiveContainer>
      </div>
      <VisuallyHidden>
        <Table>
          <caption>{title}</caption>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.name}</th>
                {r.cells.map((c, i) => (
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </>
  );
}

/**
 * A channel's data points by theme, drawn with recharts: over time (stacked bars or lines, one
 * per theme, the rest as "Other data points") or per theme (bars or a pie). A click on a theme's
 * bar, slice or line opens its data points; the figures follow as a table for screen readers,
 * whose theme buttons do the same.
 */
export function ChannelChart({
  title,
  data,
  onSelectTheme,
  height = 280,
}: {
  title: string;
  data: ChannelChartData;
  onSelectTheme?: (theme: Theme) => void;
  height?: number;
}) {
  const axis = { fill: 'var(--mantine-color-text)', fontSize: 12 };
  const select = (id: string | undefined) => {
    const theme = data.themes.find((t) => t.id === id);
    if (theme && onSelectTheme) onSelectTheme(theme);
  };
  // In the table a theme's name is a button that opens its data points, as a click on the chart does.
  const themeName = (t: Theme): ReactNode =>
    onSelectTheme ? (
      <button type="button" onClick={() => onSelectTheme(t)}>
        {t.title}
      </button>
    ) : (
      t.title
    );
  if (!data.total) {
    return (
      <Text c="dimmed" size="sm" py="lg" ta="center">
        No data points in this channel yet.
      </Text>
    );
  }
  if (data.measure === 'BY_THEME') {
    if (!data.themes.length) {
      return (
        <Text c="dimmed" size="sm" py="lg" ta="center">
          This channel has no themes yet: its {data.total} data points are counted once it is clustered.
        </Text>
      );
    }
    const rows = data.themes.map((t, i) => ({ id: t.id, name: t.title, value: t.count, fill: colorOf(i) }));
    return (
      <ChartWithFigures
        title={title}
        label={`${title}: data points of ${rows.length} themes, as a ${data.chartType.toLowerCase()} chart`}
        height={height}
        columns={['Theme', 'Data points']}
        rows={data.themes.map((t) => ({ key: t.id, name: themeName(t), cells: [t.count] }))}
        chart={
          data.chartType === 'PIE' ? (
            <PieChart>
              <Tooltip />
              <Legend />
              <Pie
                data={rows}
                dataKey="value"
                nameKey="name"
                outerRadius="80%"
                cursor="pointer"
                isAnimationActive={false}
                onClick={(e: unknown) =>
                  select((e as { id?: string; payload?: { id?: string } }).payload?.id ?? (e as { id?: string }).id)
                }
                label={{ fill: 'var(--mantine-color-text)', fontSize: 12 }}
              >
                {rows.map((r) => (
                  <Cell key={r.id} fill={r.fill} />
                ))}
              </Pie>
            </PieChart>
          ) : (
            <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
              <XAxis dataKey="name" tick={axis} interval={0} />
              <YAxis tick={axis} allowDecimals={false} />
              <Tooltip />
              <Bar
                dataKey="value"
                name="Data points"
                cursor="pointer"
                isAnimationActive={false}
                onClick={(e: unknown) =>
                  select((e as { id?: string; payload?: { id?: string } }).payload?.id ?? (e as { id?: string }).id)
                }
              >
                {rows.map((r) => (
                  <Cell key={r.id} fill={r.fill} />
                ))}
              </Bar>
            </BarChart>
          )
        }
      />
    );
  }

  // Over time: a key per theme shown (by index, as titles may repeat), and the rest as Other.
  const keys = data.themes.map((_t, i) => `t${i}`);
  const rows = data.series.map((b) => {
    const row: Record<string, number | string> = { name: label(b.start, data.interval), total: b.total };
    b.counts.forEach((n, i) => (row[keys[i]!] = n));
    row.other = b.total - b.counts.reduce((a, n) => a + n, 0);
    return row;
  });
  const hasOther = rows.some((r) => Number(r.other) > 0);
  const unit = data.interval.toLowerCase();
  const themed = data.themes.length > 0;
  return (
    <ChartWithFigures
      title={title}
      label={`${title}: ${data.total} data points over ${rows.length} ${unit}s${themed ? `, in ${data.themes.length} themes` : ''}`}
      height={height}
      columns={['From', 'Data points', ...data.themes.map(themeName)]}
      rows={rows.map((r, i) => ({ key: i, name: r.name, cells: [r.total, ...keys.map((k) => r[k])] }))}
      chart={
        data.chartType === 'LINE' ? (
          <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
            <XAxis dataKey="name" tick={axis} />
            <YAxis tick={axis} allowDecimals={false} />
            <Tooltip />
            <Legend
              onClick={(e: unknown) =>
                select(data.themes[keys.indexOf(String((e as { dataKey?: unknown }).dataKey))]?.id)
              }
            />
            <Line
              dataKey="total"
              name="All data points"
              stroke="#495057"
              strokeDasharray="4 3"
              dot={false}
              isAnimationActive={false}
            />
            {data.themes.map((t, i) => (
              <Line
                key={t.id}
                dataKey={keys[i]!}
                name={t.title}
                stroke={colorOf(i)}
                strokeWidth={2}
                isAnimationActive={false}
                activeDot={{ onClick: () => select(t.id), cursor: 'pointer' }}
              />
            ))}
          </LineChart>
        ) : (
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
            <XAxis dataKey="name" tick={axis} />
            <YAxis tick={axis} allowDecimals={false} />
            <Tooltip />
            {themed && <Legend />}
            {themed ? (
              data.themes.map((t, i) => (
                <Bar
                  key={t.id}
                  dataKey={keys[i]!}
                  name={t.title}
                  stackId="points"
                  fill={colorOf(i)}
                  cursor="pointer"
                  isAnimationActive={false}
                  onClick={() => select(t.id)}
                />
              ))
            ) : (
              <Bar dataKey="total" name="Data points" fill="#15aabf" isAnimationActive={false} />
            )}
            {themed && hasOther && (
              <Bar dataKey="other" name={OTHER} stackId="points" fill="#adb5bd" isAnimationActive={false} />
            )}
          </BarChart>
        )
      }
    />
  );
}
