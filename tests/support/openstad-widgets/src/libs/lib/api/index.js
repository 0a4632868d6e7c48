import getHeaders from './get-headers.js'

let OpenStadComponentAPI = {
  getHeaders,
}

export default OpenStadComponentAPI;

