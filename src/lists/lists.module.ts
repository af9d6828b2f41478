import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { ImportContactsService } from './import-contacts.service';
import { ListContactsController } from './list-contacts.controller';
import { ListMembersService } from './list-members.service';
import { ListsController } from './lists.controller';
import { ListsRepository } from './lists.repository';
import { ListsService } from './lists.service';

@Module({
  imports: [ContactsModule],
  controllers: [ListsController, ListContactsController],
  providers: [ListsRepository, ListsService, ListMembersService, ImportContactsService],
  exports: [ListsService, ListMembersService, ImportContactsService],
})
export class ListsModule {}
