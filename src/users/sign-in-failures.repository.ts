import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';

export type ThrottleScope = 'email' | 'ip' | 'pair';

@Injectable()
export class SignInFailuresRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Failures of each subject since `since`, newest last. */
  async since(subjects: Array<{ scope: ThrottleScope; subject: Buffer }>, since: Date): Promise<Date[][]> {
    const { rows } = await sql<{ ord: number; failed_at: Date }>(
      this.dataSource,
      `SELECT s.ord, f.failed_at
         FROM unnest($1::text[], $2::bytea[]) WITH ORDINALITY AS s(scope, subject, ord)
         JOIN sign_in_failures f ON f.scope = s.scope AND f.subject = s.subject AND f.failed_at > $3
        ORDER BY f.failed_at`,
      [subjects.map((s) => s.scope), subjects.map((s) => s.subject), since.toISOString()],
    );
    return subjects.map((_, i) => rows.filter((r) => Number(r.ord) === i + 1).map((r) => r.failed_at));
  }

  /** Records a failure for each subject and forgets their failures older than the window. */
  async record(subjects: Array<{ scope: ThrottleScope; subject: Buffer }>, at: Date, forgetBefore: Date): Promise<void> {
    await sql(
      this.dataSource,
      `WITH pruned AS (
         DELETE FROM sign_in_failures f USING unnest($1::text[], $2::bytea[]) AS s(scope, subject)
          WHERE f.scope = s.scope AND f.subject = s.subject AND f.failed_at <= $4
       )
       INSERT INTO sign_in_failures (scope, subject, failed_at) SELECT scope, subject, $3 FROM unnest($1::text[], $2::bytea[]) AS s(scope, subject)`,
      [subjects.map((s) => s.scope), subjects.map((s) => s.subject), at.toISOString(), forgetBefore.toISOString()],
    );
  }

  async clear(scope: ThrottleScope, subject: Buffer): Promise<void> {
    await sql(this.dataSource, `DELETE FROM sign_in_failures WHERE scope = $1 AND subject = $2`, [scope, subject]);
  }
}
