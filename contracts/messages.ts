import { z } from 'zod';
import { envelopeMeta } from './envelope.js';
import { storedSizes } from './limits.js';
import { callsignSchema, roleSchema } from './records.js';

export const messageTypeSchema = z.enum(['REQUEST', 'RESPONSE', 'INFO', 'BLOCKER', 'RESOLUTION', 'CONFIRM', 'CONTEXT']);
export type MessageType = z.infer<typeof messageTypeSchema>;

export const messageStatusSchema = z.enum(['PENDING', 'ACKNOWLEDGED', 'PROCESSED', 'BLOCKED']);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

export const prioritySchema = z.enum(['low', 'normal', 'high', 'urgent']);

/** Who a message or handoff is for: one agent, or whichever agent has a role. */
export const recipientSchema = z.union([z.object({ callsign: callsignSchema }), z.object({ role: roleSchema })]);
export type Recipient = z.infer<typeof recipientSchema>;

export const messageSchema = z.object({
  ...envelopeMeta(storedSizes),
  id: z.string(),
  from: z.string(),
  to: recipientSchema,
  type: messageTypeSchema,
  priority: prioritySchema,
  subject: z.string().optional(),
  body: z.string(),
  refs: z.array(z.string()),
  /** A REQUEST or BLOCKER about a work item blocks it until resolved. */
  workItem: z.string().optional(),
  mentions: z.array(z.string()),
  status: messageStatusSchema,
  /** Who has acknowledged it: a message to a role is unread for each agent until that agent acks. */
  ackedBy: z.array(z.string()).default([]),
  sentAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Message = z.infer<typeof messageSchema>;
