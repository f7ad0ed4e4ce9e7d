import type { Knex } from 'knex';
import * as foundation from './0001_foundation.ts';
import * as workspaces from './0003_workspaces.ts';
import * as membershipLookup from './0004_membership_lookup.ts';
import * as researchContent from './0005_research_content.ts';
import * as researchTagsFields from './0006_research_tags_fields.ts';
import * as researchPeopleComments from './0007_research_people_comments.ts';
import * as researchShares from './0008_research_shares.ts';
import * as researchViewsRetention from './0009_research_views_retention.ts';
import * as researchTransfers from './0010_research_transfers.ts';
import * as search from './0011_search.ts';
import * as highlightCitations from './0012_highlight_citations.ts';
import * as searchFeeds from './0013_search_feeds.ts';
import * as searchOutbox from './0014_search_outbox.ts';
import * as extensions from './0015_extensions.ts';
import * as leastPrivilege from './0016_least_privilege.ts';
import * as signInLimits from './0017_sign_in_limits.ts';
import * as searchSpeed from './0019_search_speed.ts';
import * as installationWebhooks from './0020_installation_webhooks.ts';
import * as chartsDashboards from './0025_charts_dashboards.ts';
import * as automation from './0030_automation.ts';
import * as followsNotifications from './0031_follows_notifications.ts';
import * as membershipInvalidations from './0035_membership_invalidations.ts';
import * as searchPlanRows from './0036_search_plan_rows.ts';
import * as jobEffectsScope from './0045_job_effects_scope.ts';
import * as channels from './0050_channels.ts';
import * as channelsSearch from './0051_channels_search.ts';
import * as channelsSearchOutbox from './0052_channels_search_outbox.ts';
import * as channelThemes from './0053_channel_themes.ts';
import * as channelThemesSearch from './0054_channel_themes_search.ts';
import * as channelSourceConnections from './0057_channel_source_connections.ts';
import * as ai from './0060_ai.ts';
import * as agents from './0061_agents.ts';
import * as mcp from './0065_mcp.ts';
import * as highlightSuggestions from './0067_highlight_suggestions.ts';
import * as channelShares from './0068_channel_shares.ts';
import * as insightDatapointCitations from './0069_insight_datapoint_citations.ts';
import * as searchPlanTypes from './0070_search_plan_types.ts';
import * as channelDatapointCounts from './0072_channel_datapoint_counts.ts';
import * as aiStepRuns from './0074_ai_step_runs.ts';
import * as dashboardChannelCharts from './0076_dashboard_channel_charts.ts';
import * as notificationChannels from './0078_notification_channels.ts';
import * as canvasReferenceSizes from './0079_canvas_reference_sizes.ts';
import * as accessRequests from './0083_access_requests.ts';
import * as channelDatapointWrites from './0084_channel_datapoint_writes.ts';
import * as channelThemeCounts from './0086_channel_theme_counts.ts';
import * as highlightTagIds from './0088_highlight_tag_ids.ts';
import * as webhookDeliveriesHandled from './0090_webhook_deliveries_handled.ts';
import * as dropSearchPlanRows from './0092_drop_search_plan_rows.ts';
import * as channelClusteringHeartbeat from './0095_channel_clustering_heartbeat.ts';
import * as provenanceMakers from './0096_provenance_makers.ts';
import * as themeSummaryDroppedQuotes from './0098_theme_summary_dropped_quotes.ts';
import * as automationEmailDomains from './0099_automation_email_domains.ts';
import * as pluginApprovedPermissions from './0100_plugin_approved_permissions.ts';

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** One ordered history for core and every module. Append; never reorder or edit a landed one. */
export const migrations: Migration[] = [
  { name: '0001_foundation', ...foundation },
  { name: '0003_workspaces', ...workspaces },
  { name: '0004_membership_lookup', ...membershipLookup },
  { name: '0005_research_content', ...researchContent },
  { name: '0006_research_tags_fields', ...researchTagsFields },
  { name: '0007_research_people_comments', ...researchPeopleComments },
  { name: '0008_research_shares', ...researchShares },
  { name: '0009_research_views_retention', ...researchViewsRetention },
  { name: '0010_research_transfers', ...researchTransfers },
  { name: '0011_search', ...search },
  { name: '0012_highlight_citations', ...highlightCitations },
  { name: '0013_search_feeds', ...searchFeeds },
  { name: '0014_search_outbox', ...searchOutbox },
  { name: '0015_extensions', ...extensions },
  { name: '0016_least_privilege', ...leastPrivilege },
  { name: '0017_sign_in_limits', ...signInLimits },
  { name: '0019_search_speed', ...searchSpeed },
  { name: '0020_installation_webhooks', ...installationWebhooks },
  { name: '0025_charts_dashboards', ...chartsDashboards },
  { name: '0030_automation', ...automation },
  { name: '0031_follows_notifications', ...followsNotifications },
  { name: '0035_membership_invalidations', ...membershipInvalidations },
  { name: '0036_search_plan_rows', ...searchPlanRows },
  { name: '0045_job_effects_scope', ...jobEffectsScope },
  { name: '0050_channels', ...channels },
  { name: '0051_channels_search', ...channelsSearch },
  { name: '0052_channels_search_outbox', ...channelsSearchOutbox },
  { name: '0053_channel_themes', ...channelThemes },
  { name: '0054_channel_themes_search', ...channelThemesSearch },
  { name: '0057_channel_source_connections', ...channelSourceConnections },
  { name: '0060_ai', ...ai },
  { name: '0061_agents', ...agents },
  { name: '0065_mcp', ...mcp },
  { name: '0067_highlight_suggestions', ...highlightSuggestions },
  { name: '0068_channel_shares', ...channelShares },
  { name: '0069_insight_datapoint_citations', ...insightDatapointCitations },
  { name: '0070_search_plan_types', ...searchPlanTypes },
  { name: '0072_channel_datapoint_counts', ...channelDatapointCounts },
  { name: '0074_ai_step_runs', ...aiStepRuns },
  { name: '0076_dashboard_channel_charts', ...dashboardChannelCharts },
  { name: '0078_notification_channels', ...notificationChannels },
  { name: '0079_canvas_reference_sizes', ...canvasReferenceSizes },
  { name: '0083_access_requests', ...accessRequests },
  { name: '0084_channel_datapoint_writes', ...channelDatapointWrites },
  { name: '0086_channel_theme_counts', ...channelThemeCounts },
  { name: '0088_highlight_tag_ids', ...highlightTagIds },
  { name: '0090_webhook_deliveries_handled', ...webhookDeliveriesHandled },
  { name: '0092_drop_search_plan_rows', ...dropSearchPlanRows },
  { name: '0095_channel_clustering_heartbeat', ...channelClusteringHeartbeat },
  { name: '0096_provenance_makers', ...provenanceMakers },
  { name: '0098_theme_summary_dropped_quotes', ...themeSummaryDroppedQuotes },
  { name: '0099_automation_email_domains', ...automationEmailDomains },
  { name: '0100_plugin_approved_permissions', ...pluginApprovedPermissions },
];
