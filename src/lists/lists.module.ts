import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { ListContactsController } from './list-contacts.controller';
import { ListMembersService } from './list-members.service';
import { ListsController } from './lists.controller';
import { ListsRepository } from './lists.repository';
import { ListsService } from './lists.service';

@Module({
  imports: [ContactsModule],
  controllers: [ListsController, ListContactsController],
  providers: [ListsRepository, ListsService, ListMembersService],
  exports: [ListsService, ListMembersService],
})
export class ListsModule {}
