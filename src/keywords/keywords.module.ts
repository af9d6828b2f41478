import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ListsModule } from '../lists/lists.module';
import { SendersModule } from '../senders/senders.module';
import { KeywordRulesController } from './keyword-rules.controller';
import { KeywordRulesRepository } from './keyword-rules.repository';
import { KeywordRulesService } from './keyword-rules.service';

@Module({
  imports: [AccountsModule, SendersModule, ListsModule],
  controllers: [KeywordRulesController],
  providers: [KeywordRulesRepository, KeywordRulesService],
  exports: [KeywordRulesService],
})
export class KeywordsModule {}
