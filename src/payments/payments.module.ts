import { Module } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { CardsRepository } from './cards.repository';
import { CardsService } from './cards.service';
import { PaymentProvider } from './payment-provider';
import { SimulatedPaymentProvider } from './simulated-provider';
import { SimulatedPaymentsRepository } from './simulated-payments.repository';
import { StripePaymentProvider } from './stripe-provider';

/** The payment provider port: Stripe when STRIPE_SECRET_KEY is set, else the simulated provider. */
@Module({
  providers: [
    CardsRepository,
    SimulatedPaymentsRepository,
    {
      provide: PaymentProvider,
      inject: [AppConfig, SimulatedPaymentsRepository, Clock],
      useFactory: (config: AppConfig, payments: SimulatedPaymentsRepository, clock: Clock): PaymentProvider =>
        config.stripeSecretKey ? new StripePaymentProvider(config.stripeSecretKey, config.stripeApiBase) : new SimulatedPaymentProvider(payments, clock),
    },
    CardsService,
  ],
  exports: [CardsService],
})
export class PaymentsModule {}
