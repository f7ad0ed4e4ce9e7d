import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { IconMessages } from '@tabler/icons-react';
import { lazy } from 'react';

// Each page's code loads when it is opened, not with the workspace app.
const ChannelsPage = lazy(() => import('./ChannelsPage.tsx').then((m) => ({ default: m.ChannelsPage })));
const ChannelPage = lazy(() => import('./ChannelPage.tsx').then((m) => ({ default: m.ChannelPage })));
const CreateInsightPage = lazy(() => import('./CreateInsightPage.tsx').then((m) => ({ default: m.CreateInsightPage })));
const PublicDataPage = lazy(() => import('./PublicDataPage.tsx').then((m) => ({ default: m.PublicDataPage })));
const DataPointPage = lazy(() => import('./DataPointPage.tsx').then((m) => ({ default: m.DataPointPage })));
const ThemePage = lazy(() => import('./themes/ThemePage.tsx').then((m) => ({ default: m.ThemePage })));
const OutliersPage = lazy(() => import('./themes/OutliersPage.tsx').then((m) => ({ default: m.OutliersPage })));
const TopicPage = lazy(() => import('./themes/TopicPage.tsx').then((m) => ({ default: m.TopicPage })));

/** The channels module's web part (000 §2): /channels, a channel's view and its data points. */
export default defineWebExtension({
  id: 'channels',
  routes: [
    { path: '/channels', component: ChannelsPage, permission: 'projects:read' },
    { path: '/channels/:channelId', component: ChannelPage, permission: 'projects:read' },
    { path: '/channels/:channelId/data', component: ChannelPage, permission: 'projects:read' },
    { path: '/channels/:channelId/data/:datumData', component: DataPointPage, permission: 'projects:read' },
    { path: '/channels/:channelId/themes/:themeId', component: ThemePage, permission: 'projects:read' },
    {
      path: '/channels/:channelId/themes/:themeId/data/:datumData',
      component: DataPointPage,
      permission: 'projects:read',
    },
    { path: '/channels/:channelId/outliers', component: OutliersPage, permission: 'projects:read' },
    { path: '/channels/:channelId/outliers/:datumData', component: DataPointPage, permission: 'projects:read' },
    { path: '/t/:topicId', component: TopicPage, permission: 'projects:read' },
    { path: '/insights/create/:activityWrapId', component: CreateInsightPage, permission: 'insights:create' },
    // A shared channel or dataset (000 §2 /p/data/{shareToken}), for anyone with the link.
    { path: '/p/data/:shareToken', component: PublicDataPage, public: true },
  ],
  navigation: [{ label: 'Channels', to: '/channels', permission: 'projects:read', icon: IconMessages }],
});
