import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('SMS Messaging Service for Australia')
    .setDescription('Send and receive SMS to Australian mobiles. Every 4xx/5xx body is {"error": "..."}.')
    .setVersion('2.0.0')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'API username and password' }, 'basic')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at /openapi.json and the browsable docs at /docs, both without authentication. */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
  return document;
}
