import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ContactsController } from './contacts.controller';
import { ContactsRepository } from './contacts.repository';
import { ContactsService } from './contacts.service';

@Module({ imports: [AccountsModule], controllers: [ContactsController], providers: [ContactsRepository, ContactsService], exports: [ContactsService] })
export class ContactsModule {}
