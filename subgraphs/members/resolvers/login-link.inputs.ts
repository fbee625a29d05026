/** The sign-in link's token as the exchange receives it. */
import { text } from '../../kernel/schemas.ts';

export const LoginLinkToken = text(200);
