import { Anchor, Container, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { TQ } from './api.ts';
import { PointList } from './PointList.tsx';

/** /channels/{channelId}/outliers: data points the last clustering placed in no theme. */
export function OutliersPage() {
  const { channelId = '' } = useParams();
  return (
    <Container size={1084} py="lg">
      <Anchor component={Link} to={`/channels/${channelId}`} size="sm">
        Back to the channel
      </Anchor>
      <Title order={1} mt={4}>
        Outliers
      </Title>
      <Text c="dimmed" mb="md">
        Data points too far from every theme. Open one to move it into a theme; a stricter sensitivity makes more of
        them.
      </Text>
      <PointList
        query={TQ.outliers}
        variables={{ channelId }}
        field="channelOutliers"
        linkBase={`/channels/${channelId}/outliers`}
        label="Outliers"
        pageSize={25}
      />
    </Container>
  );
}
