import { Model, snakeCaseMappers } from 'objection';

/**
 * Base of the workspace models: camelCase in code, snake_case in the tables. Models are never
 * bound to a connection; every query passes the request's transaction (`Model.query(trx)`), so
 * row-level security scopes it to the workspace that transaction was opened for.
 */
export class FieldbookModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}

/** A model whose table keeps `updated_at`: every update and patch moves it. */
export class StampedModel extends FieldbookModel {
  declare updatedAt: Date;

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
