import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { ContactsModule } from '../contacts/contacts.module';
import { ListsModule } from '../lists/lists.module';
import { QueuesModule } from '../queues/queues.module';
import { UnsubscribesModule } from '../unsubscribes/unsubscribes.module';
import { ContactImportRunner } from './contact-import-runner';
import { ContactImportsController } from './contact-imports.controller';
import { ContactImportsRepository } from './contact-imports.repository';
import { ContactImportsService } from './contact-imports.service';

/** Contact imports as jobs: the API and the dashboard store them (ContactImportsService); workers run them (ContactImportRunner). */
@Module({
  imports: [ContactsModule, ListsModule, UnsubscribesModule, ConsentModule, QueuesModule],
  controllers: [ContactImportsController],
  providers: [ContactImportsRepository, ContactImportsService, ContactImportRunner],
  exports: [ContactImportsService, ContactImportRunner],
})
export class ContactImportsModule {}
