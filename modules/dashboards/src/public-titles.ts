import type { RequestContext } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import type { ChannelChartView } from './channel-chart-view.ts';

/**
 * A theme's title is made of the words of the feedback in it, and feedback names customers. On a
 * public link a title that names a person of the workspace's directory or a member (a word of
 * their name, their email) is not shown: the theme is shown by its number in the chart instead.
 */
export async function withPublicThemeTitles(
  member: RequestContext,
  research: Pick<ResearchServices, 'textsNamingPeople'>,
  view: ChannelChartView,
): Promise<ChannelChartView> {
  const naming = await research.textsNamingPeople(
    member,
    view.themes.map((t) => t.title),
  );
  return { ...view, themes: view.themes.map((t, i) => (naming[i] ? { ...t, title: `Theme ${i + 1}` } : t)) };
}
