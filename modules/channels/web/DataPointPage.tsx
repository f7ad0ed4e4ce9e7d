import { Alert, Anchor, Badge, Container, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { Link, useParams } from 'react-router';
import { Q, type DataPoint } from './api.ts';
import { PointTheme } from './themes/PointTheme.tsx';
import { SimilarDataPoints } from './SimilarDataPoints.tsx';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /channels/{channelId}/data/{datum}: one data point with its ticket or conversation, person and fields. */
export function DataPointPage() {
  const { channelId = '', datumData = '' } = useParams();
  const point = useGraphQL<{ channelDataPoint: DataPoint }>(Q.point, { id: datumData });
  const p = point.data?.channelDataPoint;
  return (
    <Container size={864} py="lg">
      <Anchor component={Link} to={`/channels/${channelId}`} size="sm">
        Back to the channel
      </Anchor>
      <Title order={1} mt={4} mb="md">
        Data point
      </Title>
      {point.error && (
        <Alert color="red">
          {point.error.message.includes('That data point')
            ? 'This data point could not be found.'
            : point.error.message}
        </Alert>
      )}
      {p && (
        <Stack>
          <Paper withBorder p="md">
            <Text style={{ whiteSpace: 'pre-wrap' }}>{p.content}</Text>
            <Group gap="xs" mt="sm">
              <Text size="sm" c="dimmed">
                {when(p.createdAt)}
              </Text>
              <Badge variant="light" color="gray">
                {p.source}
              </Badge>
              {p.sentiment && <Badge variant="light">{p.sentiment}</Badge>}
              {p.externalUrl && (
                <Anchor href={p.externalUrl} target="_blank" rel="noreferrer" size="sm">
                  Open in {p.source.toLowerCase()}
                </Anchor>
              )}
            </Group>
          </Paper>
          <PointTheme channelId={channelId} dataPointId={p.id} />
          <section aria-labelledby="person-heading">
            <Title order={2} size="h4" id="person-heading" mb="xs">
              Person
            </Title>
            {p.person ? (
              <Anchor component={Link} to={`/people/${p.person.id}`}>
                {p.person.name}
                {p.person.email && p.person.email !== p.person.name ? ` (${p.person.email})` : ''}
              </Anchor>
            ) : (
              <Text c="dimmed">No person is linked.</Text>
            )}
          </section>
          <section aria-labelledby="fields-heading">
            <Title order={2} size="h4" id="fields-heading" mb="xs">
              Fields
            </Title>
            {p.fields.length ? (
              <Table aria-label="Fields">
                <Table.Tbody>
                  {p.fields.map((f) => (
                    <Table.Tr key={f.field.id}>
                      <Table.Th w={200}>{f.field.label}</Table.Th>
                      <Table.Td>
                        {typeof f.value === 'boolean' ? (f.value ? 'Yes' : 'No') : f.value}
                        {f.npsBand && (
                          <Badge ml="xs" size="sm" variant="light">
                            {f.npsBand}
                          </Badge>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Text c="dimmed">No fields.</Text>
            )}
          </section>
          {p.raw && (
            <section aria-labelledby="raw-heading">
              <Title order={2} size="h4" id="raw-heading" mb="xs">
                {p.raw.kind === 'ticket' ? 'Ticket' : 'Conversation'}
              </Title>
              {p.raw.kind === 'ticket' ? (
                <Paper withBorder p="md">
                  {p.raw.name && <Text fw={600}>{p.raw.name}</Text>}
                  {p.raw.description && p.raw.description !== p.content && (
                    <Text style={{ whiteSpace: 'pre-wrap' }}>{p.raw.description}</Text>
                  )}
                  {!!p.raw.tags.length && (
                    <Group gap="xs" mt="xs">
                      {p.raw.tags.map((t) => (
                        <Badge key={t} variant="outline" color="gray">
                          {t}
                        </Badge>
                      ))}
                    </Group>
                  )}
                  {p.raw.creator && (
                    <Text
                      size="sm"
                      c="dimmed"
                      mt={
                        p.raw.name || p.raw.tags.length || (p.raw.description && p.raw.description !== p.content)
                          ? 'xs'
                          : 0
                      }
                    >
                      By {p.raw.creator}
                    </Text>
                  )}
                  {!!Object.keys(p.raw.remoteFields).length && (
                    <Table
                      mt={
                        p.raw.name ||
                        p.raw.tags.length ||
                        p.raw.creator ||
                        (p.raw.description && p.raw.description !== p.content)
                          ? 'sm'
                          : 0
                      }
                      aria-label="Ticket fields"
                    >
                      <Table.Tbody>
                        {Object.entries(p.raw.remoteFields).map(([k, v]) => (
                          <Table.Tr key={k}>
                            <Table.Th w={200}>{k}</Table.Th>
                            <Table.Td>{typeof v === 'string' ? v : JSON.stringify(v)}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )}
                </Paper>
              ) : (
                <Stack gap="xs" component="ol" aria-label="Messages" style={{ listStyle: 'none', padding: 0 }}>
                  {p.raw.messages.map((m, i) => (
                    <Paper component="li" withBorder p="sm" key={m.externalId ?? i}>
                      <Text size="sm" fw={600}>
                        {m.participant ?? 'Unnamed participant'}{' '}
                        <Text span size="xs" c="dimmed">
                          {when(m.timestamp)}
                        </Text>
                      </Text>
                      <Text style={{ whiteSpace: 'pre-wrap' }}>{m.text}</Text>
                    </Paper>
                  ))}
                </Stack>
              )}
            </section>
          )}
          <SimilarDataPoints id={p.id} />
        </Stack>
      )}
    </Container>
  );
}
