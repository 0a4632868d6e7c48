import getUser from './get-user.js'
import getJWT from './get-jwt.js'
import logout from './logout.js'
import hasRole from './has-role.js'

let OpenStadComponentUser = {
  getUser,
  getJWT,
  logout,
  hasRole,
}

export default OpenStadComponentUser;

