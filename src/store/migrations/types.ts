// Owns the migration shape: each migration has a unique version and runs inside one transaction.
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
