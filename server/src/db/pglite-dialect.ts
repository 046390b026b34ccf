import type { PGlite, Results } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { PoolUse } from '../core/metrics';

/**
 * A statement without parameters goes as a simple query (PGlite's `exec`), as node-postgres sends it on PostgreSQL: it
 * may hold several statements (tenancy opens its transaction and sets its scope in one), and PGlite answers it in two
 * calls into the database instead of the six of a statement with parameters.
 */
class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result: Results<R> | undefined = query.parameters.length
      ? await this.client.query<R>(query.sql, [...query.parameters])
      : ((await this.client.exec(query.sql)).at(-1) as Results<R> | undefined);
    const rows = result?.rows ?? [];
    return result?.affectedRows ? { numAffectedRows: BigInt(result.affectedRows), rows } : { rows };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite');
  }
}

/** PGlite runs one statement at a time: its one connection is lent to one transaction after another, in turn. */
class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #lent = false;
  readonly #waiting: ((connection: PGliteConnection) => void)[] = [];

  constructor(private readonly client: PGlite) {
    this.#connection = new PGliteConnection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#lent) {
      this.#lent = true;
      return this.#connection;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** The one connection as a pool of one: lent or idle, and the transactions waiting for it. */
  use(): PoolUse {
    return { total: 1, idle: this.#lent ? 0 : 1, waiting: this.#waiting.length };
  }

  async releaseConnection(): Promise<void> {
    const next = this.#waiting.shift();
    if (next) next(this.#connection);
    else this.#lent = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const options = [settings.isolationLevel && `isolation level ${settings.isolationLevel}`, settings.accessMode];
    await connection.executeQuery(CompiledQuery.raw(`start transaction ${options.filter(Boolean).join(' ')}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  #driver: PGliteDriver | undefined;

  createDriver(): Driver {
    this.#driver = new PGliteDriver(this.client);
    return this.#driver;
  }

  /** The connection's use (the metrics); idle before Kysely first asks for it. */
  use(): PoolUse {
    return this.#driver?.use() ?? { total: 1, idle: 1, waiting: 0 };
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
