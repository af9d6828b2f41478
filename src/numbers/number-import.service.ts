import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { UnitOfWork } from '../database/unit-of-work';
import { parseNumbersCsv } from './numbers-csv';
import { NumbersRepository } from './numbers.repository';

export interface NumbersImportReport {
  rows: number;
  added: number;
  /** Already in the inventory, or repeated in the file. */
  skipped: number;
  invalid: number;
  errors: Array<{ line: number; reason: string }>;
}

/** Bad rows listed in the report; the count says how many there were in all. */
const ERRORS_LISTED = 100;

/** Operator: loads dedicated numbers into the inventory (`numbers:import`), one set-based statement. */
@Injectable()
export class NumberImportService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly numbers: NumbersRepository,
  ) {}

  async importCsv(csv: string): Promise<NumbersImportReport> {
    const result = parseNumbersCsv(csv);
    if (!result.ok) throw failure('numbersCsvInvalid', result.reason);
    const { rows, invalid, repeated } = result.parsed;
    const added = await this.uow.run((tx) => this.numbers.importMany(rows, tx));
    return {
      rows: rows.length + invalid.length + repeated,
      added,
      skipped: rows.length - added + repeated,
      invalid: invalid.length,
      errors: invalid.slice(0, ERRORS_LISTED),
    };
  }
}
