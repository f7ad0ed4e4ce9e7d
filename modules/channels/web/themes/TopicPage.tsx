import { Alert, Anchor, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { TQ, type Topic } from './api.ts';
import { dataPoints } from '../count.ts';

/** /t/{topicId}: a topic and the themes it groups. */
export function TopicPage() {
  const { topicId = '' } = useParams();
  const host = useFieldbook();
  const canEdit = host.permissions.includes('projects:update');
  const topic = useGraphQL<{ channelTopic: Topic }>(TQ.topic, { id: topicId });
  const [title, setTitle] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const t = topic.data?.channelTopic;
  if (topic.error) {
    return (
      <Container size={864} py="xl">
        <Title order={1}>This topic could not be found</Title>
        <Anchor component={Link} to="/channels">
          Go to channels
        </Anchor>
      </Container>
    );
  }
  async function save() {
    try {
      await host.graphql(TQ.renameTopic, { id: topicId, title });
      setTitle(null);
      await topic.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <Container size={864} py="lg">
      {t && (
        <>
          <Anchor component={Link} to={`/channels/${t.channelId}`} size="sm">
            Back to the channel
          </Anchor>
          <Group justify="space-between" align="flex-end" mt={4} mb="xs">
            {title === null ? (
              <Title order={1}>{t.title}</Title>
            ) : (
              <Group align="flex-end">
                <TextInput
                  label="Topic title"
                  value={title}
                  onChange={(e) => setTitle(e.currentTarget.value)}
                  w={420}
                  maxLength={300}
                />
                <Button onClick={() => void save()}>Save</Button>
                <Button variant="default" onClick={() => setTitle(null)}>
                  Cancel
                </Button>
              </Group>
            )}
            {canEdit && title === null && (
              <Button variant="default" onClick={() => setTitle(t.title)}>
                Rename
              </Button>
            )}
          </Group>
          <Text c="dimmed" mb="md">
            Topic of {t.themes.length} themes, {dataPoints(t.datumCount)}
          </Text>
          {error && <Alert color="red">{error}</Alert>}
          <Stack gap="xs" component="ul" aria-label="Themes of this topic" style={{ listStyle: 'none', padding: 0 }}>
            {t.themes.map((theme) => (
              <Paper component="li" key={theme.id} withBorder p="sm">
                <Anchor component={Link} to={`/channels/${t.channelId}/themes/${theme.id}`} fw={500}>
                  {theme.title}
                </Anchor>
                <Text size="sm" c="dimmed">
                  {dataPoints(theme.datumCount)}
                  {theme.phrases.length ? ` · ${theme.phrases.join(', ')}` : ''}
                </Text>
              </Paper>
            ))}
          </Stack>
        </>
      )}
    </Container>
  );
}
