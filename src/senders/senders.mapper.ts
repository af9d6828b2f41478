import type { Sender } from './sender.entity';

export interface SenderView {
  sender: string;
  type: string;
  status: string;
  label: string;
  is_default: boolean;
}

export function toSenderView(sender: Sender): SenderView {
  return { sender: sender.value, type: sender.type, status: sender.status, label: sender.label, is_default: sender.isDefault };
}
