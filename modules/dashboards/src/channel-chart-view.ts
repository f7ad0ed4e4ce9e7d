import type { ThemeChartData } from '@fieldbook/channels';
import type { DashboardChartRow } from './charts.ts';

/** A channel chart's figures with how it is drawn, as a member or a public link sees it. */
export interface ChannelChartView extends ThemeChartData {
  measure: NonNullable<DashboardChartRow['measure']>;
  chartType: NonNullable<DashboardChartRow['chart_type']>;
  interval: NonNullable<DashboardChartRow['interval']>;
}
