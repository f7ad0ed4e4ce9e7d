import { Alert, Box, Group, NavLink, Stack } from '@mantine/core';
import {
  IconAdjustments,
  IconDatabaseExport,
  IconPuzzle,
  IconEye,
  IconForms,
  IconHourglass,
  IconLock,
  IconBulb,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { isNotFound } from '../ui/errors.ts';
import { ErrorNote, NotFoundPanel, PageFrame, SectionLoader } from '../ui/layout.tsx';
import { useProject } from '../project/useProject.ts';
import { AccessSettings } from './AccessSettings.tsx';
import { AccessRequests } from './AccessRequests.tsx';
import { ExportSettings } from './ExportSettings.tsx';
import { FieldSettings } from './FieldSettings.tsx';
import { GeneralSettings } from './GeneralSettings.tsx';
import { RetentionSettings } from './RetentionSettings.tsx';

const SECTIONS = [
  { path: '', label: 'General', icon: IconAdjustments },
  { path: 'fields', label: 'Note fields', icon: IconForms },
  { path: 'insight-fields', label: 'Insight fields', icon: IconBulb },
  { path: 'access', label: 'Access', icon: IconLock },
  { path: 'export', label: 'Export', icon: IconDatabaseExport },
  { path: 'data-retention', label: 'Data retention', icon: IconHourglass },
] as const;

/** /projects/{projectId}/settings and its sections (000 §2). People without edit access see them read-only. */
export function ProjectSettingsPage() {
  const { projectId, valid, project, state } = useProject();
  const { pathname } = useLocation();
  const raw = pathname.split('/')[4] ?? '';
  const section = raw === 'note-fields' ? 'fields' : raw;
  const current = SECTIONS.find((s) => s.path === section) ?? SECTIONS[0];

  if (!valid || isNotFound(state.error))
    return <NotFoundPanel what="This project" back={{ label: 'Go to projects', to: '/projects' }} />;
  if (state.error && !project)
    return (
      <ErrorNote error={state.error} title="The project could not be loaded" onRetry={() => void state.reload()} />
    );
  if (!project) return <SectionLoader label="Loading the project settings…" />;

  const base = `/projects/${projectId}/settings`;
  const readOnly = !project.myAccess.canEdit;
  let body: ReactNode;
  switch (current.path) {
    case 'fields':
      body = <FieldSettings project={project} objectType="NOTE" />;
      break;
    case 'insight-fields':
      body = <FieldSettings project={project} objectType="INSIGHT" />;
      break;
    case 'access':
      body = (
        <Stack gap="lg">
          {project.myAccess.canManageAccess && (
            <AccessRequests projectId={project.id} onChanged={() => void state.reload()} />
          )}
          <AccessSettings project={project} onChanged={() => void state.reload()} />
        </Stack>
      );
      break;
    case 'export':
      body = <ExportSettings project={project} />;
      break;
    case 'data-retention':
      body = <RetentionSettings />;
      break;
    default:
      body = <GeneralSettings project={project} onChanged={() => void state.reload()} />;
  }

  return (
    <PageFrame
      title={`${project.title}: settings`}
      crumbs={[
        { label: 'Projects', to: '/projects' },
        { label: project.title, to: `/projects/${projectId}` },
      ]}
      description="Settings of this project: its details, custom fields, who can open it, and exports."
      width="wide"
    >
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <Box component="nav" aria-label="Project settings" w={210} style={{ flexShrink: 0 }}>
          <Stack gap={2}>
            {SECTIONS.map((s) => {
              const active = s.path === current.path;
              const Icon = s.icon;
              return (
                <NavLink
                  key={s.path}
                  component={Link}
                  to={s.path ? `${base}/${s.path}` : base}
                  label={s.label}
                  leftSection={<Icon size={16} aria-hidden />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  variant="light"
                  style={{ borderRadius: 8 }}
                />
              );
            })}
            {/* Extensions are the host's page (the plugins installed in the workspace). */}
            <NavLink
              component={Link}
              to={`${base}/extensions`}
              label="Extensions"
              leftSection={<IconPuzzle size={16} aria-hidden />}
              variant="light"
              style={{ borderRadius: 8 }}
            />
          </Stack>
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {readOnly && (
            <Alert color="gray" variant="light" icon={<IconEye size={18} aria-hidden />} mb="md" title="Read-only">
              You can see these settings, but only people with edit access to this project can change them.
            </Alert>
          )}
          {body}
        </Box>
      </Group>
    </PageFrame>
  );
}
