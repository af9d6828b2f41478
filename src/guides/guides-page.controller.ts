import { Get, Param } from '@nestjs/common';
import { PageController } from '../pages/page-controller.decorator';
import { GuidesService } from './guides.service';

/** `/guides`: the product's guides (docs/*.md), readable without signing in; linked from every page's header and from /docs. */
@PageController('guides')
export class GuidesPageController {
  constructor(private readonly guides: GuidesService) {}

  @Get()
  index() {
    return this.guides.index();
  }

  @Get('files/:dir/:file')
  file(@Param('dir') dir: string, @Param('file') file: string) {
    return this.guides.file(`${dir}/${file}`);
  }

  @Get(':name')
  guide(@Param('name') name: string) {
    return this.guides.guide(name);
  }
}
