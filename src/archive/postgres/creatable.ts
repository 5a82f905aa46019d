// Whether this user may create the archive's schema (or, if it is there but empty, its tables): asked, never tried.
import { connect, databaseError, type PgTarget } from './connect.js';

export async function schemaCreatable(target: PgTarget): Promise<boolean> {
  const client = await connect(target);
  try {
    const { rows } = await client.query<{ may: boolean }>(
      `SELECT CASE WHEN n.oid IS NULL THEN has_database_privilege(current_database(), 'CREATE')
                   ELSE has_schema_privilege(n.oid, 'CREATE') END AS may
         FROM (SELECT 1) AS one LEFT JOIN pg_namespace n ON n.nspname = $1`,
      [target.schema],
    );
    return rows[0]?.may === true;
  } catch (err) {
    throw databaseError(target, err) ?? err;
  } finally {
    await client.end().catch(() => {});
  }
}
