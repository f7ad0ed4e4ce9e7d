/** What a person opening a chart's or a dashboard's public link sees (the share dialog says it). */
export const CHART_SHARE_SCOPE =
  'Anyone with a public link sees this chart without signing in: its figures per tag or tag group, kept up to date, but not the highlights behind them, nor anything else of the workspace.';

export const DASHBOARD_SHARE_SCOPE =
  'Anyone with a public link sees this dashboard without signing in, kept up to date, as you can see it: the charts of projects and channels you can read, with their figures, but not the highlights or data points behind them. Charts of projects that turned public links off are left out; the link stops working if you leave the workspace.';
