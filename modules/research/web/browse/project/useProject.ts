import { useParams } from 'react-router';
import { q, type Project } from '../api.ts';
import { UUID, useLoad, type Loaded } from '../ui/hooks.ts';

/** The project named by the route's `projectId` (a UUID, 000 §2), or nothing when the id is not one. */
export function useProject(): {
  projectId: string;
  valid: boolean;
  project: Project | null;
  state: Loaded<{ project: Project }>;
  setProject(p: Project): void;
} {
  const { projectId = '' } = useParams();
  const valid = UUID.test(projectId);
  const state = useLoad<{ project: Project }>(q.project, { id: projectId }, { skip: !valid });
  return {
    projectId,
    valid,
    project: state.data?.project ?? null,
    state,
    setProject: () => void state.reload(),
  };
}
