import { deleteRedisKeys, dropDatabase, testEnvFromProcess } from './test-env';

export default async function globalTeardown(): Promise<void> {
  const env = testEnvFromProcess();
  if (process.env.TEST_KEEP_DATABASE !== 'true') await dropDatabase(env.databaseUrl);
  await deleteRedisKeys(env.redisUrl, env.redisPrefix);
}
