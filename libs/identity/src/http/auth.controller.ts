import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Public, Session, SessionPrincipal } from '@app/platform';
import { AccountsService } from '../application/accounts.service';
import { AcceptInvitationDto, SignInDto, SignUpDto } from './dto/auth.dto';

@ApiTags('dashboard: sign-in')
@Controller('auth')
export class AuthController {
  constructor(private readonly accounts: AccountsService) {}

  /** A new agency and its first admin; the plan starts active. */
  @Post('sign-up')
  @Public()
  signUp(@Body() body: SignUpDto) {
    return this.accounts.signUp(body);
  }

  @Post('sign-in')
  @HttpCode(200)
  @Public()
  signIn(@Body() body: SignInDto) {
    return this.accounts.signIn(body.email, body.password);
  }

  @Post('sign-out')
  @HttpCode(204)
  @Session()
  signOut(@CurrentPrincipal() actor: SessionPrincipal): Promise<void> {
    return this.accounts.signOut(actor);
  }

  @Get('session')
  @Session()
  session(@CurrentPrincipal() actor: SessionPrincipal) {
    return this.accounts.session(actor);
  }

  /** Anyone holding the invitation token; 410 once used or expired. */
  @Post('accept-invitation')
  @Public()
  acceptInvitation(@Body() body: AcceptInvitationDto) {
    return this.accounts.acceptInvitation(body);
  }
}
