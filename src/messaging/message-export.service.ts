import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ExportCsvWriter } from './message-export.csv';
import { ExportFilter, MessageExportRepository } from './message-export.repository';

/**
 * The message history as CSV, streamed: each cursor fetch becomes one chunk, written only when the
 * client has taken the last one (the stream's back-pressure), so memory stays at one fetch whatever the
 * export's size.
 */
@Injectable()
export class MessageExportService {
  constructor(private readonly exports: MessageExportRepository) {}

  csv(accountId: number, filter: ExportFilter, timeZone: string): Readable {
    const writer = new ExportCsvWriter(timeZone);
    const batches = this.exports.rows(accountId, filter);
    async function* chunks(): AsyncGenerator<string> {
      yield writer.header();
      for await (const rows of batches) yield writer.lines(rows);
    }
    return Readable.from(chunks(), { objectMode: false });
  }
}
