import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { ROLES, type Role } from '@app/platform';

const PASSWORD_MIN = 10;

/** What a person gives when they join: a password and a name. */
class JoiningPersonDto {
  @ApiProperty({
    minLength: PASSWORD_MIN,
    maxLength: 200,
    description:
      'Hard to guess: a zxcvbn score of 3 or more over its first 64 characters, the email, names and ' +
      'agency name counted as known words (else 400 `password is too easy to guess`).',
  })
  @IsString()
  @Length(PASSWORD_MIN, 200, { message: `password must be at least ${PASSWORD_MIN} characters` })
  password: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @Length(1, 100)
  firstName: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @Length(1, 100)
  lastName: string;
}

export class SignUpDto extends JoiningPersonDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @Length(1, 200)
  organizationName: string;

  @ApiProperty({ format: 'email' })
  @IsEmail()
  @MaxLength(320)
  email: string;
}

export class SignInDto {
  @ApiProperty()
  @IsString()
  @MaxLength(320)
  email: string;

  @ApiProperty()
  @IsString()
  @MaxLength(200)
  password: string;
}

export class InviteDto {
  @ApiProperty({ format: 'email' })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: Role;
}

export class AcceptInvitationDto extends JoiningPersonDto {
  @ApiProperty()
  @IsString()
  @Length(1, 200)
  token: string;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: Role;
}
