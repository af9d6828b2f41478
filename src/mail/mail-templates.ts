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
};
