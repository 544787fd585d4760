/** What an agent does instead of a command only the operator may run: the refusals' shared advice. */
export const ASK_OPERATOR = 'ask the operator (fleet_message_send to the operator, or say so in your reply); the operator runs it in their own terminal';
