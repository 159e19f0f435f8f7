import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import {
  ApiConflictError,
  ApiErrorResponse,
  ApiGoneError,
  ApiJsonBodyErrors,
  ApiNoBodyError,
  ApiUnauthenticatedError,
  ClientOrigin,
  CurrentPrincipal,
  HOUR,
  Public,
  type PublicRouteLimit,
  PublicRouteRateLimit,
  Session,
  SessionPrincipal,
} from '@app/platform';
import { AccountsService } from '../application/accounts.service';
import { SIGN_IN_LIMITS } from '../application/sign-in-limits';
import { AcceptInvitationDto, SignInDto, SignUpDto } from './dto/auth.dto';
import { SessionView, SignedInView } from '../views/session.view';

const EMAIL_TAKEN = 'CONFLICT: `This email is already registered.`';
const WEAK_PASSWORD =
  'VALIDATION_FAILED: `password is too easy to guess` at `password` (zxcvbn score under 3, the ' +
  "person's email and names counted as known words).";

/** Every call counts, whatever its answer (docs/security/sign-in-limits.md). */
export const SIGN_UP_LIMIT: PublicRouteLimit = { name: 'sign-up', perAddress: { limit: 10, ttl: HOUR } };
export const ACCEPT_INVITATION_LIMIT: PublicRouteLimit = {
  name: 'accept-invitation',
  perAddress: { limit: 30, ttl: HOUR },
  perBodyField: { field: 'token', limit: 10, ttl: HOUR },
};
const windowMinutes = SIGN_IN_LIMITS.windowMs / 60_000;

@ApiTags('dashboard: sign-in')
@Controller('auth')
export class AuthController {
  constructor(private readonly accounts: AccountsService) {}

  /** A new agency and its first admin; the plan starts active. */
  @Post('sign-up')
  @ApiOperation({ summary: 'Sign up: create an agency and its first admin' })
  @Public()
  @PublicRouteRateLimit(SIGN_UP_LIMIT)
  @ApiCreatedResponse({ type: SignedInView, description: 'The new agency, its admin and their session.' })
  @ApiJsonBodyErrors(WEAK_PASSWORD)
  @ApiConflictError(EMAIL_TAKEN)
  signUp(@Body() body: SignUpDto) {
    return this.accounts.signUp(body);
  }

  @Post('sign-in')
  @ApiOperation({ summary: 'Sign in: get a session token' })
  @HttpCode(200)
  @Public()
  @ApiOkResponse({ type: SignedInView, description: 'A new session.' })
  @ApiJsonBodyErrors()
  @ApiUnauthenticatedError(
    'UNAUTHENTICATED: `Wrong email or password.` (the same answer, in the same time, for both)',
  )
  @ApiErrorResponse(
    429,
    `RATE_LIMITED: \`Too many failed sign-ins; wait Retry-After seconds.\` Failed sign-ins are counted ` +
      `in ${windowMinutes}-minute windows: ${SIGN_IN_LIMITS.perEmailAndAddress} for one email from one IP, ` +
      `${SIGN_IN_LIMITS.perAddress} from one IP (an IPv6 address counts by its /64), and past ` +
      `${SIGN_IN_LIMITS.perEmail} for one email from every IP, one more from each IP that has not failed ` +
      'for it. A successful sign-in counts nothing; an IP that has not failed is never refused.',
  )
  signIn(@Body() body: SignInDto, @ClientOrigin() origin: ClientOrigin) {
    return this.accounts.signIn(body.email, body.password, origin);
  }

  @Post('sign-out')
  @ApiOperation({ summary: 'Sign out: end this session' })
  @HttpCode(204)
  @Session()
  @ApiNoContentResponse({ description: 'The session ended; its token answers 401 from now on.' })
  @ApiNoBodyError()
  signOut(@CurrentPrincipal() actor: SessionPrincipal): Promise<void> {
    return this.accounts.signOut(actor);
  }

  @Get('session')
  @ApiOperation({ summary: "Read the current session's user and agency" })
  @Session()
  @ApiOkResponse({ type: SessionView })
  session(@CurrentPrincipal() actor: SessionPrincipal) {
    return this.accounts.session(actor);
  }

  /** Anyone holding the invitation token; 410 once used or expired. */
  @Post('accept-invitation')
  @ApiOperation({ summary: 'Accept an invitation and join the agency' })
  @Public()
  @PublicRouteRateLimit(ACCEPT_INVITATION_LIMIT)
  @ApiCreatedResponse({
    type: SignedInView,
    description: 'The new person, with the invited role, signed in.',
  })
  @ApiJsonBodyErrors(WEAK_PASSWORD)
  @ApiUnauthenticatedError('UNAUTHENTICATED: `Unknown invitation.`')
  @ApiConflictError(`${EMAIL_TAKEN} (the person is still in an agency)`)
  @ApiGoneError('GONE: `This invitation was already used.` or `This invitation has expired.`')
  acceptInvitation(@Body() body: AcceptInvitationDto) {
    return this.accounts.acceptInvitation(body);
  }
}
