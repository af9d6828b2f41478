import { Module } from '@nestjs/common';
import { GuidesPageController } from './guides-page.controller';
import { GuidesService } from './guides.service';

@Module({
  controllers: [GuidesPageController],
  providers: [GuidesService],
})
export class GuidesModule {}
