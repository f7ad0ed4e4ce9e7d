import { Table, Text, VisuallyHidden } from '@mantine/core';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  PolarAngleAxis,
  PolarGrid,
  PolarRadiusAxis,
  Radar,
  RadarChart,
  ResponsiveContainer,
  Tooltip,
  Treemap,
  XAxis,
  YAxis,
} from 'recharts';
import { METRIC_LABELS, type ChartItem, type ChartMetric, type ChartType } from './api.ts';

/** Colours for items without their own, distinguishable in light and dark themes. */
export const PALETTE = [
  '#4c6ef5',
  '#12b886',
  '#fab005',
  '#fa5252',
  '#7950f2',
  '#15aabf',
  '#fd7e14',
  '#82c91e',
  '#e64980',
  '#868e96',
];
const colorOf = (item: ChartItem, i: number) => item.color ?? PALETTE[i % PALETTE.length]!;

interface Props {
  title: string;
  type: ChartType;
  metric: ChartMetric;
  items: readonly ChartItem[];
  /** Opens what is behind an item (a click on a bar, slice or cell, or its row in the table). */
  onSelect?: (item: ChartItem) => void;
  height?: number;
}

/**
 * One project chart drawn with recharts. The drawing is an image named after the chart; the same
 * figures follow as a table for screen readers, whose rows open the same highlights as a click.
 */
export function ChartView({ title, type, metric, items, onSelect, height = 280 }: Props) {
  const data = items.map((item, i) => ({ ...item, name: item.title, fill: colorOf(item, i) }));
  const select = (entry: unknown) => {
    const id =
      (entry as { id?: string; payload?: { id?: string } } | null)?.id ??
      (entry as { payload?: { id?: string } } | null)?.payload?.id;
    const item = items.find((i) => i.id === id);
    if (item && onSelect) onSelect(item);
  };
  if (!items.length) {
    return (
      <Text c="dimmed" size="sm" py="lg" ta="center">
        Nothing to chart yet: tag highlights in this project and their counts appear here.
      </Text>
    );
  }
  const axis = { fill: 'var(--mantine-color-text)', fontSize: 12 };
  return (
    <>
      <div
        role="img"
        aria-label={`${title}: ${METRIC_LABELS[metric].toLowerCase()} of ${items.length} items, as a ${type.toLowerCase()} chart`}
        style={{ width: '100%', height }}
      >
        <ResponsiveContainer width="100%" height="100%">
          {type === 'BAR' ? (
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
              <XAxis dataKey="name" tick={axis} interval={0} />
              <YAxis tick={axis} allowDecimals={false} />
              <Tooltip />
              <Bar
                dataKey="value"
                name={METRIC_LABELS[metric]}
                onClick={select}
                cursor="pointer"
                isAnimationActive={false}
              >
                {data.map((d) => (
                  <Cell key={d.id} fill={d.fill} />
                ))}
              </Bar>
            </BarChart>
          ) : type === 'PIE' ? (
            <PieChart>
              <Tooltip />
              <Pie
                data={data}
                dataKey="value"
                nameKey="name"
                outerRadius="80%"
                onClick={select}
                cursor="pointer"
                isAnimationActive={false}
                label={{ fill: 'var(--mantine-color-text)', fontSize: 12 }}
              >
                {data.map((d) => (
                  <Cell key={d.id} fill={d.fill} />
                ))}
              </Pie>
            </PieChart>
          ) : type === 'RADAR' ? (
            <RadarChart data={data} outerRadius="75%">
              <PolarGrid stroke="var(--mantine-color-default-border)" />
              <PolarAngleAxis dataKey="name" tick={axis} />
              <PolarRadiusAxis tick={axis} allowDecimals={false} />
              <Tooltip />
              <Radar
                dataKey="value"
                name={METRIC_LABELS[metric]}
                stroke="#4c6ef5"
                fill="#4c6ef5"
                fillOpacity={0.45}
                isAnimationActive={false}
              />
            </RadarChart>
          ) : (
            <Treemap
              data={data}
              dataKey="value"
              nameKey="name"
              stroke="var(--mantine-color-body)"
              onClick={select}
              isAnimationActive={false}
            />
          )}
        </ResponsiveContainer>
      </div>
      <ChartTable title={title} metric={metric} items={items} onSelect={onSelect} />
    </>
  );
}

/** The chart's figures as a table: visually hidden, read by screen readers and keyboard users. */
function ChartTable({ title, metric, items, onSelect }: Pick<Props, 'title' | 'metric' | 'items' | 'onSelect'>) {
  return (
    <VisuallyHidden>
      <Table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">{METRIC_LABELS[metric]}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <th scope="row">
                {onSelect ? (
                  <button type="button" onClick={() => onSelect(item)}>
                    {item.title}
                  </button>
                ) : (
                  item.title
                )}
              </th>
              <td>{item.value}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </VisuallyHidden>
  );
}
