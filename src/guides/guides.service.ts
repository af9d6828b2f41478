import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { fileDownload, PageResult, view } from '../pages/page-result';
import { findDocsDir, GuideLibrary } from './guide-library';

/** The guides in docs/ as pages: an index, each guide rendered, and the files they link to. */
@Injectable()
export class GuidesService {
  private readonly library = new GuideLibrary(findDocsDir());

  index(): PageResult {
    return view('guides/views/index', { title: 'Guides', guides: this.library.list() });
  }

  guide(name: string): PageResult {
    const guide = this.library.render(name);
    if (!guide) throw failure('notFound');
    return view('guides/views/guide', { title: guide.title, guide, guides: this.library.list() });
  }

  file(relative: string): PageResult {
    const file = this.library.rawFile(relative);
    if (!file) throw failure('notFound');
    return fileDownload(file.contentType, relative.split('/').pop()!, file.body);
  }
}
