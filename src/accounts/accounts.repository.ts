import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { managerFor } from '../database/sql';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Account } from './account.entity';
import { randomToken } from './secrets';

@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return managerFor(this.dataSource, tx).getRepository(Account);
  }

  async findById(accountId: number, tx?: Tx): Promise<Account | null> {
    return this.repo(tx).findOne({ where: { id: accountId } });
  }

  async insert(fields: { name: string; isTest: boolean; allowDuplicateContacts: boolean }, tx: Tx): Promise<Account> {
    return this.repo(tx).save(this.repo(tx).create({ ...fields, optoutCode: randomToken(10) }));
  }
}
