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
  ApiGoneError,
  ApiJsonBodyErrors,
  ApiNoBodyError,
  ApiUnauthenticatedError,
  CurrentPrincipal,
  Public,
  Session,
  SessionPrincipal,
} from '@app/platform';
import { AccountsService } from '../application/accounts.service';
import { AcceptInvitationDto, SignInDto, SignUpDto } from './dto/auth.dto';
import { SessionView, SignedInView } from '../views/session.view';

const EMAIL_TAKEN = 'CONFLICT: `This email is already registered.`';

@ApiTags('dashboard: sign-in')
@Controller('auth')
export class AuthController {
  constructor(private readonly accounts: AccountsService) {}

  /** A new agency and its first admin; the plan starts active. */
  @Post('sign-up')
  @ApiOperation({ summary: 'Sign up: create an agency and its first admin' })
  @Public()
  @ApiCreatedResponse({ type: SignedInView, description: 'The new agency, its admin and their session.' })
  @ApiJsonBodyErrors()
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
  signIn(@Body() body: SignInDto) {
    return this.accounts.signIn(body.email, body.password);
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
  @ApiCreatedResponse({
    type: SignedInView,
    description: 'The new person, with the invited role, signed in.',
  })
  @ApiJsonBodyErrors()
  @ApiUnauthenticatedError('UNAUTHENTICATED: `Unknown invitation.`')
  @ApiConflictError(`${EMAIL_TAKEN} (the person is still in an agency)`)
  @ApiGoneError('GONE: `This invitation was already used.` or `This invitation has expired.`')
  acceptInvitation(@Body() body: AcceptInvitationDto) {
    return this.accounts.acceptInvitation(body);
  }
}
