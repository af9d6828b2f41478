import { Body, Get, Module, Post } from '@nestjs/common';
import { failure } from '../../src/common/errors/error-catalogue';
import { formText, type FormBody } from '../../src/pages/form-body';
import { PageController } from '../../src/pages/page-controller.decorator';
import { redirectTo, view } from '../../src/pages/page-result';
import { ERROR_TEMPLATE } from '../../src/pages/view-engine';

/** A template of the tests (a form), reached from the view root (src/). */
const PROBE_FORM = '../test/support/views/probe-form';

/** Page routes mounted only in tests: the page layer (rendering, forms, CSRF, error pages) without any domain. */
@PageController('test-page')
class ProbePagesController {
  @Get()
  show() {
    return view(PROBE_FORM, { title: 'Probe page', message: 'Hello <b>world</b> & "friends"' });
  }

  @Post('form')
  submit(@Body() form: FormBody | undefined) {
    const name = formText(form, 'name');
    if (name === '') return view(ERROR_TEMPLATE, { title: 'Probe form', message: 'name is required' }, 400);
    return redirectTo(`/test-page?name=${encodeURIComponent(name)}&colours=${encodeURIComponent(JSON.stringify(form?.colour ?? []))}`);
  }

  @Get('forbidden')
  forbidden() {
    throw failure('csrfTokenInvalid');
  }

  @Get('private')
  private() {
    throw failure('signInRequired');
  }

  @Get('boom')
  boom() {
    throw new Error('secret internals');
  }
}

@Module({ controllers: [ProbePagesController] })
export class ProbePagesModule {}
