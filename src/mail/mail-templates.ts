import type { Mail } from './mail.service';

/** The texts of the dashboard's emails. Plain text: every client shows it, and links stay exact. */
export const MailTemplates = {
  invitation(to: string, input: { accountName: string; link: string; validHours: number }): Mail {
    return {
      to,
      subject: `You have been invited to ${input.accountName} on SMS Platform`,
      text: [
        `Hello,`,
        ``,
        `You have been given access to the SMS Platform account "${input.accountName}".`,
        `Choose your password here (the link works once, for ${input.validHours} hours):`,
        ``,
        input.link,
        ``,
        `If you did not expect this, you can ignore this email.`,
      ].join('\n'),
    };
  },

  signUpVerify(to: string, input: { businessName: string; link: string; validHours: number }): Mail {
    return {
      to,
      subject: 'Confirm your email to open your SMS Platform account',
      text: [
        `Hello,`,
        ``,
        `Someone (we hope you) signed up to SMS Platform for "${input.businessName}" with this email.`,
        `Confirm it here to open your test account (the link works once, for ${input.validHours} hours):`,
        ``,
        input.link,
        ``,
        `If it was not you, ignore this email: no account is opened.`,
      ].join('\n'),
    };
  },

  signUpExisting(to: string, input: { signInLink: string; resetLink: string }): Mail {
    return {
      to,
      subject: 'Confirm your email to open your SMS Platform account',
      text: [
        `Hello,`,
        ``,
        `Someone (perhaps you) tried to sign up to SMS Platform with this email, which already signs in to an account.`,
        `No new account was opened. Sign in here:`,
        ``,
        input.signInLink,
        ``,
        `Forgotten your password? Choose a new one here: ${input.resetLink}`,
        ``,
        `If it was not you, ignore this email: nothing has changed.`,
      ].join('\n'),
    };
  },

  signInFailures(to: string, input: { failures: number; minutes: number; resetLink: string }): Mail {
    return {
      to,
      subject: 'Failed sign-ins to your SMS Platform account',
      text: [
        `Hello,`,
        ``,
        `There were ${input.failures} failed attempts to sign in as this email address in the last ${input.minutes} minutes.`,
        `If they were yours, there is nothing to do. Your own sign-ins are not blocked by attempts made elsewhere.`,
        ``,
        `If they were not yours, someone may be guessing your password. Choose a new, long password here:`,
        ``,
        input.resetLink,
        ``,
        `and ask your account owner to require two-factor sign-in.`,
      ].join('\n'),
    };
  },

  sendingPaused(to: string, input: { accountName: string; volume: number; limit: number; securityLink: string }): Mail {
    return {
      to,
      subject: `Sending paused on ${input.accountName}: unusual volume`,
      text: [
        `Sending from ${input.accountName} is paused: a send would have taken its last hour to ${input.volume} messages, over its limit of ${input.limit}`,
        `(ten times its busiest recent hour, or its starting allowance). That send and every send after it are refused until the pause is released.`,
        ``,
        `If you expected this volume, release the pause on Settings › Security (the account owner can):`,
        ``,
        input.securityLink,
        ``,
        `If you did not, someone may be using your API keys or your sign-in: revoke the keys on Settings › API keys,`,
        `change your password, and contact support before releasing it. Messages accepted before the pause are still sent.`,
      ].join('\n'),
    };
  },

  sendingPausedOperator(to: string, input: { accountId: number; accountName: string; volume: number; limit: number }): Mail {
    return {
      to,
      subject: `Sending brake: account ${input.accountId} (${input.accountName}) paused`,
      text: [
        `Account ${input.accountId} (${input.accountName}): a send would have taken its last hour to ${input.volume} messages, over its limit of ${input.limit}.`,
        `Its sends are refused until released. Its owner has been emailed. To release it:`,
        ``,
        `  npm run -s cli -- account:release-brake --account ${input.accountId}`,
      ].join('\n'),
    };
  },

  lowBalance(to: string, input: { accountName: string; balance: string; threshold: string; billingLink: string }): Mail {
    return {
      to,
      subject: `Low balance: ${input.balance} credits left on ${input.accountName}`,
      text: [
        `The credit balance of ${input.accountName} fell below ${input.threshold} credits: ${input.balance} credits are left.`,
        `Sends that cost more than the balance are refused. Buy credits or set up auto-recharge on the Billing page:`,
        ``,
        input.billingLink,
        ``,
        `This warning is sent once each time the balance falls below the threshold you set there.`,
      ].join('\n'),
    };
  },

  autoRechargeStopped(to: string, input: { accountName: string; credits: number; cardLast4: string; reason: string; billingLink: string }): Mail {
    return {
      to,
      subject: `Auto-recharge stopped on ${input.accountName}`,
      text: [
        `Auto-recharge of ${input.accountName} tried to buy ${input.credits} credits with the card ending in ${input.cardLast4}: ${input.reason}.`,
        `Auto-recharge is now switched off, so it will not try again. Check the card and switch it back on on the Billing page:`,
        ``,
        input.billingLink,
      ].join('\n'),
    };
  },

  passwordReset(to: string, input: { link: string; validMinutes: number }): Mail {
    return {
      to,
      subject: 'Reset your SMS Platform password',
      text: [
        `Hello,`,
        ``,
        `Someone asked to reset the password of this email's SMS Platform sign-in.`,
        `Choose a new password here (the link works once, for ${input.validMinutes} minutes):`,
        ``,
        input.link,
        ``,
        `If it was not you, ignore this email: your password stays as it is.`,
      ].join('\n'),
    };
  },

  purchasesEnabled(to: string, input: { accountName: string; keyLabel: string; username: string; by: string; dailyLimit: string }): Mail {
    return {
      to,
      subject: `Purchases enabled for API key ${input.keyLabel}`,
      text: [
        `Purchases were enabled for the API key "${input.keyLabel}" (${input.username}) of ${input.accountName} by ${input.by}.`,
        `The key can now buy credits and dedicated numbers with the account's saved cards, up to A$${input.dailyLimit} (inc. GST) in any 24 hours.`,
        ``,
        `If this was not expected, switch purchases off in Settings > API.`,
      ].join('\n'),
    };
  },

  dailyLimitRaised(to: string, input: { accountName: string; keyLabel: string; username: string; by: string; fromAmount: string; toAmount: string }): Mail {
    return {
      to,
      subject: `Daily limit raised for API key ${input.keyLabel}`,
      text: [
        `The daily purchase limit of the API key "${input.keyLabel}" (${input.username}) of ${input.accountName} was raised from A$${input.fromAmount} to A$${input.toAmount} (inc. GST) by ${input.by}.`,
        ``,
        `If this was not expected, lower it or switch purchases off in Settings > API.`,
      ].join('\n'),
    };
  },

  liveApproved(to: string, input: { accountName: string; requestId: number; startingCredits: string | null; sendersLink: string }): Mail {
    return {
      to,
      subject: `${input.accountName} is live`,
      text: [
        `Your request for a live account (request ${input.requestId}) is approved: ${input.accountName} is now a live account.`,
        ``,
        `Your API keys stay the same. Messages now go to the phone networks and cost credits.`,
        ...(input.startingCredits ? [`We added ${input.startingCredits} free credits to start with.`] : []),
        `Senders need registration before you send from them (the Sandbox Sender ID of the test account is gone):`,
        ``,
        input.sendersLink,
      ].join('\n'),
    };
  },

  liveDeclined(to: string, input: { accountName: string; requestId: number; reason: string; goLiveLink: string }): Mail {
    return {
      to,
      subject: `${input.accountName}: live account not approved`,
      text: [
        `Your request for a live account for ${input.accountName} (request ${input.requestId}) was not approved.`,
        ``,
        `Reason: ${input.reason}`,
        ``,
        `Your test account keeps working. Once the reason is dealt with you can ask again:`,
        ``,
        input.goLiveLink,
      ].join('\n'),
    };
  },

  senderRegistrationApproved(to: string, input: { accountName: string; sender: string; registrationId: number }): Mail {
    return {
      to,
      subject: `Sender ID ${input.sender} approved`,
      text: [
        `The registration of the Sender ID "${input.sender}" for ${input.accountName} (registration ${input.registrationId}) is approved.`,
        ``,
        `"${input.sender}" is now an active sender of the account: messages can be sent from it at once, and carriers show it as registered.`,
      ].join('\n'),
    };
  },

  senderRegistrationRejected(to: string, input: { accountName: string; sender: string; registrationId: number; reason: string }): Mail {
    return {
      to,
      subject: `Sender ID ${input.sender} not approved`,
      text: [
        `The registration of the Sender ID "${input.sender}" for ${input.accountName} (registration ${input.registrationId}) was not approved.`,
        ``,
        `Reason: ${input.reason}`,
        ``,
        `You can submit a new registration on the Sender IDs page once the reason is dealt with.`,
      ].join('\n'),
    };
  },
  taxInvoice(
    to: string,
    input: { invoiceNumber: string; accountName: string; keyLabel: string; username: string; boughtBy?: string | null; item: string; total: string; gst: string; held: boolean },
  ): Mail {
    return {
      to,
      subject: `Tax invoice ${input.invoiceNumber}${input.held ? ' (payment held for review)' : ''}`,
      text: [
        `Your tax invoice ${input.invoiceNumber} for ${input.accountName} is attached.`,
        ``,
        `Item: ${input.item}`,
        `Total: A$${input.total} inc. GST (GST A$${input.gst})`,
        input.boughtBy ? `${input.boughtBy}.` : `Bought with the API key "${input.keyLabel}" (${input.username}).`,
        ...(input.held
          ? [
              ``,
              `The payment is held for review by our payment provider. What it buys is delivered once the review releases it; if it is refused, the payment is refunded in full.`,
            ]
          : []),
      ].join('\n'),
    };
  },
  renewalFailed(to: string, input: { accountName: string; number: string; expiresAt: string; releaseAt: string; cardLast4: string }): Mail {
    return {
      to,
      subject: `Renewal of ${input.number} failed`,
      text: [
        `We could not renew the dedicated number ${input.number} of ${input.accountName}: the card ending in ${input.cardLast4} was declined.`,
        ``,
        `The number expires ${input.expiresAt} UTC. We will try again; if it still cannot be renewed by ${input.releaseAt} UTC, the number is released and can no longer send or receive messages for you.`,
        `Update the card on the Billing page to keep it.`,
      ].join('\n'),
    };
  },

  numberReleased(to: string, input: { accountName: string; number: string }): Mail {
    return {
      to,
      subject: `Dedicated number ${input.number} released`,
      text: [
        `The dedicated number ${input.number} of ${input.accountName} could not be renewed before the end of its grace period and has been released.`,
        ``,
        `It is no longer a sender of the account.`,
      ].join('\n'),
    };
  },
};
