import { Anchor, Group, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { EmergingThemesBlock } from './types.ts';

const BAR = 14;
const GAP = 10;
const LABEL = 180;
const WIDTH = 460;

/**
 * How a channel's themes grew (000 §3 emerging-themes graph): per theme, the previous period's
 * data points beside the latest period's, drawn as paired bars; the same figures are in a table
 * for screen readers.
 */
export function EmergingThemesGraph({ block }: { block: EmergingThemesBlock }) {
  const max = Math.max(1, ...block.items.flatMap((i) => [i.previousCount, i.currentCount]));
  const scale = (n: number) => (n / max) * (WIDTH - LABEL - 40);
  const rowHeight = BAR * 2 + GAP;
  const height = block.items.length * rowHeight;
  return (
    <figure style={{ margin: 0 }} data-testid="emerging-themes">
      <Text size="sm" fw={600} component="figcaption">
        Emerging themes in{' '}
        <Anchor component={Link} to={`/channels/${block.channelId}`} size="sm">
          {block.channelTitle}
        </Anchor>
      </Text>
      <svg
        width="100%"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="presentation"
        aria-hidden
        style={{ maxWidth: WIDTH, display: 'block', marginTop: 6 }}
      >
        {block.items.map((item, i) => {
          const y = i * rowHeight;
          return (
            <g key={item.id}>
              <text x={0} y={y + BAR + 2} fontSize={12} fill="var(--mantine-color-text)">
                {item.title.length > 26 ? `${item.title.slice(0, 25)}…` : item.title}
              </text>
              <rect
                x={LABEL}
                y={y}
                width={scale(item.previousCount)}
                height={BAR - 2}
                fill="var(--mantine-color-gray-5)"
                rx={2}
              />
              <text
                x={LABEL + scale(item.previousCount) + 4}
                y={y + BAR - 4}
                fontSize={11}
                fill="var(--mantine-color-dimmed)"
              >
                {item.previousCount}
              </text>
              <rect
                x={LABEL}
                y={y + BAR}
                width={scale(item.currentCount)}
                height={BAR - 2}
                fill="var(--mantine-color-indigo-6)"
                rx={2}
              />
              <text
                x={LABEL + scale(item.currentCount) + 4}
                y={y + 2 * BAR - 4}
                fontSize={11}
                fill="var(--mantine-color-text)"
              >
                {item.currentCount}
              </text>
            </g>
          );
        })}
      </svg>
      <Group gap="md" mt={4} aria-hidden>
        <Text size="xs" c="dimmed">
          <span
            style={{
              display: 'inline-block',
              width: 10,
              height: 10,
              background: 'var(--mantine-color-gray-5)',
              marginRight: 4,
            }}
          />
          Previous period
        </Text>
        <Text size="xs" c="dimmed">
          <span
            style={{
              display: 'inline-block',
              width: 10,
              height: 10,
              background: 'var(--mantine-color-indigo-6)',
              marginRight: 4,
            }}
          />
          Latest period
        </Text>
      </Group>
      <VisuallyHidden>
        <table>
          <caption>Data points per theme in {block.channelTitle}</caption>
          <thead>
            <tr>
              <th scope="col">Theme</th>
              <th scope="col">Previous period</th>
              <th scope="col">Latest period</th>
            </tr>
          </thead>
          <tbody>
            {block.items.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.title}</th>
                <td>{item.previousCount}</td>
                <td>{item.currentCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}
