/** What the package offers to code outside the service: the webhook receiver kit. */
export { verifyWebhookSignature, SIGNATURE_TOLERANCE_SECONDS } from './webhooks/signature';
