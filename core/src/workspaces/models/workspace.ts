import { StampedModel } from './base.ts';
import type { RegionCode } from '../regions.ts';

/** The tenant registry (002 §3): read before any workspace scope exists, so it has no row-level security. */
export class Workspace extends StampedModel {
  static override tableName = 'workspaces';

  declare id: string;
  declare name: string;
  declare subdomain: string;
  declare region: RegionCode;
  declare logoUrl: string | null;
  declare primaryColor: string | null;
  declare allowedDomains: string[];
  declare allowEnterpriseAuth: boolean;
  declare enforceEnterpriseAuth: boolean;
  declare disableDataOutIntegrations: boolean;
  declare publicLinksDisabled: boolean;
  declare orgSize: string | null;
  declare promo: string | null;
  declare installTemplateId: string | null;
  declare createdBy: string | null;
  declare createdAt: Date;
}
