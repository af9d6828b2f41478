import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Account } from './account.entity';
import { randomToken } from './secrets';

@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(Account);
  }

  async findById(accountId: number): Promise<Account | null> {
    return this.repo().findOne({ where: { id: accountId } });
  }

  async insert(fields: { name: string; isTest: boolean; allowDuplicateContacts: boolean }, manager: EntityManager): Promise<Account> {
    return this.repo(manager).save(this.repo(manager).create({ ...fields, optoutCode: randomToken(10) }));
  }
}
