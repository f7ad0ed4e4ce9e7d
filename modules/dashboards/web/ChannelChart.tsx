import { Alert, Loader, Table, VisuallyHidden } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Q } from './api.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A channel's data points over time, one bar per day, week or month (read with the viewer's access). */
export function ChannelChart({ channelId, title, interval }: { channelId: string; title: string; interval: 'DAY' | 'WEEK' | 'MONTH' }) {
  const res = useGraphQL<{ channelDataPointSeries: Array<{ start: string; count: number }> }>(Q.channelSeries, { c: channelId, i: interval });
  if (res.error) return <Alert color="red" title="The data points could not be loaded">{res.error.message}</Alert>;
  if (!res.data) return <Loader size="sm" aria-label="Loading data points" />;
  const data = res.data.channelDataPointSeries.map((p) => ({ name: day(p.start), count: p.count }));
  const total = data.reduce((n, p) => n + p.count, 0);
  const axis = { fill: 'var(--mantine-color-text)', fontSize: 12 };
  return (
    <>
      <div role="img" aria-label={`${title}: ${total} data points over ${data.length} ${interval.toLowerCase()}s`} style={{ width: '100%', height: 280 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
            <XAxis dataKey="name" tick={axis} />
            <YAxis tick={axis} allowDecimals={false} />
            <Tooltip />
            <Bar dataKey="count" name="Data points" fill="#15aabf" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <VisuallyHidden>
        <Table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Data points</th>
            </tr>
          </thead>
          <tbody>
            {data.map((p) => (
              <tr key={p.name}>
                <th scope="row">{p.name}</th>
                <td>{p.count}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </>
  );
}
