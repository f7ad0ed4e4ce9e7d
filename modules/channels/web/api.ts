/** The GraphQL operations and REST calls of the channel screens (modules/channels/src/schema.ts). */

export interface ChannelSummary {
  id: string;
  name: string;
  description: string | null;
  dataPointCount: number;
  weeklyDataPoints: number[];
}

export interface ChannelField {
  id: string;
  label: string;
  type: string;
  options: Array<{ id: string; label: string }>;
}

export interface DataPoint {
  id: string;
  channelId: string;
  source: string;
  externalId: string;
  externalUrl: string | null;
  importUrl: string | null;
  content: string;
  createdAt: string;
  raw: RawTicket | RawConversation | null;
  person: { id: string; name: string; email: string | null } | null;
  sentiment: 'positive' | 'negative' | 'mixed' | null;
  fields: Array<{ field: ChannelField; value: string | boolean; npsBand: string | null }>;
}

export interface RawTicket {
  kind: 'ticket';
  createdAt: string;
  name: string | null;
  description: string | null;
  tags: string[];
  creator: string | null;
  remoteFields: Record<string, unknown>;
}

export interface RawConversation {
  kind: 'conversation';
  messages: Array<{ text: string; timestamp: string; participant: string | null; externalId: string | null }>;
}

export interface ChannelImport {
  id: string;
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  recordsRead: number;
  recordsCreated: number;
  recordsUpdated: number;
  recordsSkipped: number;
  recordsFailed: number;
  failures: Array<{ line: number | null; externalId: string | null; reason: string }>;
  error: string | null;
}

export interface CsvPreview {
  delimiter: string;
  headers: string[];
  rows: Array<{ line: number; cells: string[]; error: string | null }>;
  /** Null when the file goes on past the head the preview read. */
  rowCount: number | null;
  complete: boolean;
  nulLine: number | null;
}

const CHANNEL = 'id name description dataPointCount weeklyDataPoints';
const POINT =
  'id channelId source externalId externalUrl importUrl content createdAt raw sentiment person { id name email } fields { field { id label type options { id label } } value npsBand }';
const IMPORT =
  'id status recordsRead recordsCreated recordsUpdated recordsSkipped recordsFailed failures { line externalId reason } error';

export const Q = {
  channels: `query Channels { channels { ${CHANNEL} } }`,
  channel: `query Channel($id: ID!) { channel(id: $id) { ${CHANNEL} } }`,
  trashedChannels: `query TrashedChannels { channels(trashed: true) { ${CHANNEL} } }`,
  deleteChannel: `mutation DeleteChannel($id: ID!) { deleteChannel(id: $id) }`,
  restoreChannel: `mutation RestoreChannel($id: ID!) { restoreChannel(id: $id) { id } }`,
  updateChannel: `mutation UpdateChannel($id: ID!, $input: UpdateChannelInput!) { updateChannel(id: $id, input: $input) { ${CHANNEL} } }`,
  createChannel: `mutation CreateChannel($input: CreateChannelInput!) { createChannel(input: $input) { ${CHANNEL} } }`,
  points: `query ChannelPoints($channelId: ID!, $first: Int, $after: String, $search: String, $from: String, $to: String) {
    channelDataPoints(channelId: $channelId, first: $first, after: $after, search: $search, from: $from, to: $to) { totalCount totalCountIsEstimate hasNextPage endCursor nodes { ${POINT} } }
  }`,
  point: `query ChannelPoint($id: ID!) { channelDataPoint(id: $id) { ${POINT} } }`,
  series: `query ChannelSeries($channelId: ID!, $interval: ChannelInterval, $aggregationPeriods: Int, $from: String, $to: String) {
    channelDataPointSeries(channelId: $channelId, interval: $interval, aggregationPeriods: $aggregationPeriods, from: $from, to: $to) { start count }
  }`,
  import: `query ChannelImport($id: ID!) { channelImport(id: $id) { ${IMPORT} } }`,
};

/** The message of a REST error answer, or a generic one. */
export async function restError(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { errors?: Array<{ message: string }> };
    return body.errors?.[0]?.message ?? `The server answered ${res.status}.`;
  } catch {
    return `The server answered ${res.status}.`;
  }
}
