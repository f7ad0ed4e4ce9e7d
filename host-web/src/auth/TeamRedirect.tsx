import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { NotFoundPage } from '../common/NotFound.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { isUuid } from '../session/workspace-choice.ts';

/**
 * /team-redirect/{teamId}/{path} (002 §2): enters a workspace and opens `path` in it. On this
 * origin the workspace is remembered and sent in the workspace header from then on.
 */
export function TeamRedirect() {
  const { teamId = '', '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const valid = isUuid(teamId);

  useEffect(() => {
    if (!valid) return;
    session.setWorkspace(teamId.toLowerCase());
    const path = `/${rest.replace(/^\/+/, '')}`;
    navigate(`${path === '/' ? '/home' : path}${search}${hash}`, { replace: true });
  }, [teamId, rest]); // eslint-disable-line react-hooks/exhaustive-deps

  return valid ? null : <NotFoundPage />;
}
